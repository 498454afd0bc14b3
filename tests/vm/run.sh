#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Real-kernel tests: boot Debian's kernel + systemd under QEMU (TCG), one boot
# per scenario, with hostprep installed as the package installs it.
#
#   tests/vm/run.sh                  all scenarios in tests/vm/scenarios/
#   tests/vm/run.sh 01 04-lockdown   scenarios by name or number prefix
#
# Environment: VMTEST_TIMEOUT (seconds per boot, default 120),
#   VMTEST_CACHE (base image cache, default tests/vm/.cache),
#   VMTEST_OUT (per-scenario logs and shares, default tests/vm/out),
#   VMTEST_BUDGET (seconds for the whole run, default 3400: scenarios that
#     would start after it are reported as failed, not run),
#   VMTEST_VERBOSE=1 (print guest output for passing scenarios too),
#   VMTEST_JOBS (scenarios booted at a time, default one per CPU, at most 4 and one
#     per 3 GiB of available memory),
# A scenario that says HOSTPREP_INSTALL=deb gets no make-install tree on its
#   disk but the .deb (and a higher-versioned rebuild) to install with dpkg.
#   VMTEST_INSTALL_DIR=DIR (use this hostprep install tree - as made by
#     `make install DESTDIR=DIR PREFIX=/usr` - instead of running make, e.g.
#     to try a deliberately broken build).
# A boot whose guest check made no assertion fails, and so does a run of no scenario.
# Prints one line per scenario and closes with "N passed, N failed".
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
OUTROOT=${VMTEST_OUT:-$HERE/out}
DEFAULT_TIMEOUT=${VMTEST_TIMEOUT:-120}
BUDGET=${VMTEST_BUDGET:-3400}
export PATH=$PATH:/usr/sbin:/sbin

die() { echo "tests/vm/run.sh: $*" >&2; echo "vm: 0 passed, 1 failed"; exit 1; }

# --- which scenarios ---
mapfile -t ALL < <(cd "$HERE/scenarios" && ls -1 -- *.sh | sort)
SEL=()
if [ $# -eq 0 ]; then
	SEL=("${ALL[@]}")
else
	for a in "$@"; do
		a=${a##*/}; a=${a%.sh}
		found=0
		for s in "${ALL[@]}"; do
			if [[ $s == "$a"* ]]; then SEL+=("$s"); found=1; fi
		done
		[ $found = 1 ] || die "no scenario '$a' (have: ${ALL[*]})"
	done
fi

command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing: run tests/vm/deps.sh"

# --- base image (cached) ---
T0=$(date +%s)
BASE=$("$HERE/build.sh") || die "building the base image failed"
[ -f "$BASE/rootfs.ext4" ] || die "no base image in '$BASE'"
TBASE=$(( $(date +%s) - T0 ))
echo "base image: $BASE ($TBASE s)"

# --- hostprep, installed the way the package installs it ---
# fresh output for the scenarios of this run (others' logs stay)
mkdir -p "$OUTROOT"
for s in "${SEL[@]}"; do rm -rf "${OUTROOT:?}/${s%.sh}"; done
HP_STAGE=$OUTROOT/hostprep-install
rm -rf "$HP_STAGE"
HP_OK=0
if [ -n "${VMTEST_INSTALL_DIR:-}" ]; then
	mkdir -p "$HP_STAGE" && cp -a "$VMTEST_INSTALL_DIR/." "$HP_STAGE/"
	echo "hostprep install tree: $VMTEST_INSTALL_DIR (VMTEST_INSTALL_DIR)" >"$OUTROOT/make-install.log"
else
	make -s -C "$TOP" install DESTDIR="$HP_STAGE" PREFIX=/usr >"$OUTROOT/make-install.log" 2>&1
fi
if [ -x "$HP_STAGE/usr/bin/hostprep" ]; then
	HP_OK=1
	# enable the unit as `systemctl enable` would: a symlink per WantedBy=/RequiredBy=
	unit=$HP_STAGE/usr/lib/systemd/system/hostprep.service
	if [ -f "$unit" ]; then
		sed -n 's/^\(WantedBy\|RequiredBy\)=//p' "$unit" | tr ' ' '\n' | while read -r t; do
			[ -n "$t" ] || continue
			kind=wants; grep -q "^RequiredBy=.*$t" "$unit" && kind=requires
			mkdir -p "$HP_STAGE/etc/systemd/system/$t.$kind"
			ln -sf /usr/lib/systemd/system/hostprep.service \
				"$HP_STAGE/etc/systemd/system/$t.$kind/hostprep.service"
		done
	fi
else
	echo "note: 'make install' of hostprep failed; only scenarios with NEEDS_HOSTPREP=0 can pass"
	tail -n 5 "$OUTROOT/make-install.log" | sed 's/^/  | /'
fi

# --- the Debian packages, for scenarios that install them (HOSTPREP_INSTALL=deb) ---
# Built once per run from a clean export (packaging/build.sh): the current
# version into out/deb, and the same tree at a higher version into out/deb-up
# (the upgrade). The guest gets both under /mnt/vmtest/deb{,-up}/.
DEB_OK=0
if (cd "$HERE/scenarios" && grep -lq '^HOSTPREP_INSTALL=deb' "${SEL[@]}"); then
	V=$(sed -n 's/^VERSION *:= *//p' "$TOP/Makefile")
	if "$TOP/packaging/build.sh" deb "$OUTROOT/deb" >"$OUTROOT/deb.log" 2>&1 &&
		PKG_VERSION="$V+vmtest1" "$TOP/packaging/build.sh" deb "$OUTROOT/deb-up" >>"$OUTROOT/deb.log" 2>&1; then
		DEB_OK=1
	else
		echo "note: building the .deb failed; HOSTPREP_INSTALL=deb scenarios fail"
		tail -n 5 "$OUTROOT/deb.log" | sed 's/^/  | /'
	fi
fi

# Facts from the source tree the guest checks against (not hostprep's output):
# the journal MESSAGE_IDs defined in src/.
{
	grep -ho '#define HOSTPREP_[A-Z_]*MESSAGE_ID "[0-9a-f]\{32\}"' "$TOP"/src/*.h "$TOP"/src/*.c "$TOP"/src/*/*.[ch] 2>/dev/null |
		sed 's/#define \(HOSTPREP_[A-Z_]*\) "\(.*\)"/\1=\2/' | sort -u
} >"$OUTROOT/host-env.sh"

# --- the QEMU monitor (HMP) of one boot ---
# A pipe chardev (FIFOs DIR/hmp.in, DIR/hmp.out: no socat needed). Before the
# guest runs, QEMU_LINKS_DOWN's NICs are set down and the CPUs started; while
# it runs, requests the guest drops into the share (lib.sh: hmp, hmp_later)
# are executed: SHARE/hmp/N.req holds "DELAY COMMAND"; after DELAY seconds
# the command is sent and SHARE/hmp/N.done written (host time and command).
# Everything sent is logged to DIR/hmp-actions.log, QEMU's replies to DIR/hmp.log.
HMP_PIDS=()
hmp_start() {
	local dir=$1 share=$2
	rm -f "$dir/hmp.in" "$dir/hmp.out"
	mkfifo "$dir/hmp.in" "$dir/hmp.out"
	mkdir -p "$share/hmp"
	rm -f "$share/hmp/"*
	(
		exec 3<>"$dir/hmp.in"
		send() { printf '%s\n' "$1" >&3; echo "$(date +%s.%N) $1" >>"$dir/hmp-actions.log"; }
		# outputs drained so QEMU never blocks on a full pipe
		cat <"$dir/hmp.out" >>"$dir/hmp.log" &
		if [ -n "$QEMU_LINKS_DOWN" ]; then
			for nic in $QEMU_LINKS_DOWN; do send "set_link $nic off"; done
			send cont
		fi
		# the guest's requests (polled: this is the harness, not the product)
		while :; do
			for req in "$share/hmp/"*.req; do
				[ -f "$req" ] || continue
				read -r delay hcmd <"$req"
				mv "$req" "$req.taken"
				(sleep "$delay"; send "$hcmd"; echo "$(date +%s.%N) $hcmd" >"${req%.req}.done") &
			done
			sleep 0.1
		done
	) &
	HMP_PIDS=($!)
}
hmp_stop() {
	local p kids
	{
		# the loop first, then its children: killed the other way round, the loop's
		# shell printed "Terminated" for its sleep into the tier's output
		for p in "${HMP_PIDS[@]}"; do
			kids=$(pgrep -P "$p")
			kill "$p"
			[ -z "$kids" ] || kill $kids
		done
		wait "${HMP_PIDS[@]}"
	} 2>/dev/null
	HMP_PIDS=()
}

# guest_asserted LOG: the last boot's closing line ("# N checks, ...", runner.sh) counts
# at least one assertion. A pass with nothing checked is no pass.
guest_asserted() {
	local n
	n=$(sed -n 's/^# \([0-9]*\) checks, .*/\1/p' "$1" 2>/dev/null | tail -n 1)
	[ "${n:-0}" -gt 0 ]
}

# --- one boot ---
# run_scenario FILE: 0 when the guest check passed; else non-zero and the
# reason in out/NAME/reason
run_scenario() {
	local file=$1 dir=$OUTROOT/${1%.sh}
	local share=$dir/share
	mkdir -p "$share"
	# scenario defaults, then the file (in a subshell, to keep scenarios apart)
	(
		QEMU_DEVICES='' QEMU_MACHINE='' KERNEL_ARGS='' HOSTPREP_CONF='' NEEDS_HOSTPREP=1
		REBOOTS=0 QEMU_LINKS_DOWN= HOSTPREP_INSTALL=stage
		HOSTPREP_CONF_PATH=/etc/hostprep/hostprep.conf
		TIMEOUT=$DEFAULT_TIMEOUT
		. "$HERE/lib.sh"
		. "$HERE/scenarios/$file"
		left=$(( BUDGET - ($(date +%s) - T0) ))
		if [ $left -lt 30 ]; then
			echo "not run: the run's time budget (${BUDGET} s) is used up" >"$dir/reason"
			exit 1
		fi
		# a boot's timeout is sized for a guest alone on the host; JOBS guests share it
		TIMEOUT=$((TIMEOUT * JOBS))
		[ "$TIMEOUT" -gt $left ] && TIMEOUT=$left
		if [ "$NEEDS_HOSTPREP" = 1 ] && [ $HP_OK != 1 ]; then
			echo "hostprep was not built (make install failed)" >"$dir/reason"
			exit 1
		fi
		mkdir -p "$share/stage"
		if [ "$HOSTPREP_INSTALL" = deb ]; then
			# nothing of hostprep on the disk: the guest installs the .deb
			if [ $DEB_OK != 1 ]; then
				echo "the .deb was not built (out/deb.log)" >"$dir/reason"
				exit 1
			fi
			mkdir -p "$share/deb" "$share/deb-up"
			cp "$OUTROOT"/deb/hostprep_*.deb "$share/deb/"
			cp "$OUTROOT"/deb-up/hostprep_*.deb "$share/deb-up/"
		elif [ $HP_OK = 1 ]; then
			cp -a "$HP_STAGE/." "$share/stage/"
		fi
		if [ -n "$HOSTPREP_CONF" ]; then
			mkdir -p "$share/stage$(dirname "$HOSTPREP_CONF_PATH")"
			printf '%s\n' "$HOSTPREP_CONF" >"$share/stage$HOSTPREP_CONF_PATH"
		fi
		cp "$HERE/lib.sh" "$share/lib.sh"
		cp "$HERE/scenarios/$file" "$share/scenario.sh"
		cp "$HERE/guest/runner.sh" "$share/runner.sh"
		# guest_prep: run by the initramfs before systemd (only if defined,
		# so other scenarios pay no extra process)
		declare -F guest_prep >/dev/null && cp "$HERE/guest/prep.sh" "$share/prep.sh"
		# REBOOTS=N: N more boots of the same disk (a private copy instead of
		# snapshot=on), each running guest_check_boot2.. after guest_check
		local disk="file=$BASE/rootfs.ext4,if=none,id=root,format=raw,snapshot=on"
		if [ "$REBOOTS" -gt 0 ]; then
			trap 'rm -f "$dir/rootfs.ext4"' EXIT
			cp --sparse=always --reflink=auto "$BASE/rootfs.ext4" "$dir/rootfs.ext4" || exit 1
			disk="file=$dir/rootfs.ext4,if=none,id=root,format=raw"
		fi
		cp "$OUTROOT/host-env.sh" "$share/host-env.sh"
		machine=q35${QEMU_MACHINE:+,$QEMU_MACHINE}
		# no_timer_check for every boot: on a loaded host a TCG guest fails the kernel's
		# early IO-APIC timer check and panics before userspace (seen in 45, 48, 49, 50
		# and 22/23/26 at load 20-30); that check measures QEMU's speed, nothing of ours.
		cmd=(qemu-system-x86_64 -accel tcg -cpu max -smp 2 -m 2G -machine "$machine"
			-nodefaults -display none -no-reboot
			-kernel "$BASE/vmlinuz" -initrd "$BASE/initrd.img"
			-append "console=ttyS0 panic=-1 loglevel=4 systemd.show_status=auto no_timer_check $KERNEL_ARGS"
			-serial "file:$dir/console.log"
			$QEMU_DEVICES # (word list by design)
			-drive "$disk"
			-device virtio-blk-pci,drive=root,addr=0x10
			-fsdev "local,id=vmtest,path=$share,security_model=none"
			-device virtio-9p-pci,fsdev=vmtest,mount_tag=vmtest,addr=0x11
			-chardev "pipe,id=hmp,path=$dir/hmp" -mon chardev=hmp,mode=readline)
		# QEMU_LINKS_DOWN: NICs whose cable is out from the first instruction on
		# (-S: the CPUs wait until the monitor has pulled them, then "cont")
		[ -n "$QEMU_LINKS_DOWN" ] && cmd+=(-S)
		printf '%q ' "${cmd[@]}" >"$dir/qemu-cmdline"
		local boot bad=0 qrc grc ai i bootcmd
		for i in "${!cmd[@]}"; do [ "${cmd[i]}" = -append ] && ai=$((i + 1)); done
		for ((boot = 1; boot <= REBOOTS + 1; boot++)); do
			echo "$boot" >"$share/boot"
			rm -f "$share/rc" "$share/prep.log"
			# a boot loader's line: the guest's previous boot left the whole kernel
			# command line of this boot in SHARE/cmdline.bootN (its first line)
			bootcmd=("${cmd[@]}")
			if [ "$boot" -gt 1 ] && [ -s "$share/cmdline.boot$boot" ]; then
				bootcmd[ai]=$(head -n 1 "$share/cmdline.boot$boot")
				printf '%q ' "${bootcmd[@]}" >"$dir/qemu-cmdline.boot$boot"
			fi
			hmp_start "$dir" "$share"
			timeout -k 5 "$TIMEOUT" "${bootcmd[@]}" >"$dir/qemu.log" 2>&1
			qrc=$?
			hmp_stop
			if [ "$REBOOTS" -gt 0 ]; then
				for f in "$share/journal.txt" "$dir/console.log" "$share/prep.log"; do
					[ -f "$f" ] && cp "$f" "${f%.*}.boot$boot.${f##*.}"
				done
			fi
			if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
				echo "boot $boot: guest killed after ${TIMEOUT} s (hung or too slow)" >"$dir/reason"
				exit 1
			fi
			if [ ! -f "$share/rc" ]; then
				echo "boot $boot: no result from the guest (qemu exit $qrc)" >"$dir/reason"
				exit 1
			fi
			grc=$(cat "$share/rc")
			if [ "$grc" != 0 ]; then
				echo "boot $boot: guest check exited $grc" >>"$dir/reason"
				bad=1
			elif ! guest_asserted "$share/guest.log"; then
				echo "boot $boot: guest check made no assertion" >>"$dir/reason"
				bad=1
			fi
		done
		# host_check SHARE: checks on the host of what the guest left in the share,
		# with tools the guest image does not have (promtool)
		if [ $bad = 0 ] && declare -F host_check >/dev/null; then
			host_check "$share" >>"$dir/host-check.log" 2>&1 ||
				{ echo "host_check failed (see $dir/host-check.log)" >"$dir/reason"; bad=1; }
			cat "$dir/host-check.log" >>"$share/guest.log"
		fi
		exit $bad
	)
}

# qemu_crashed DIR: the scenario failed because QEMU itself died of a signal (seen once:
# TCG QEMU 7.2 exiting 139, SIGSEGV, during a PCI remove+rescan in 45 that passes on
# every other run). Not a verdict on hostprep: the scenario is run once more.
qemu_crashed() {
	local n
	n=$(sed -n 's/.*no result from the guest (qemu exit \([0-9]*\)).*/\1/p' "$1/reason" 2>/dev/null)
	[ -n "$n" ] && [ "$n" -ge 128 ]
}

# one SCENARIO: the boot (once more if QEMU itself crashed), then its report - the verdict
# line, a measurement, the guest output of a failure - into out/NAME/report and its
# verdict into out/NAME/verdict; the caller prints the report when the job ends
one() {
	local s=$1 t ok=0 res d=$OUTROOT/${1%.sh}
	t=$(date +%s)
	if run_scenario "$s"; then
		ok=1
	elif qemu_crashed "$d"; then
		local first
		first=$(cat "$d/reason")
		rm -rf "$d.qemu-crash"
		mv "$d" "$d.qemu-crash"
		mkdir -p "$d"
		echo "     ${s%.sh}: $first: QEMU crashed, running the scenario once more" \
			"(first try kept in $d.qemu-crash)" >"$d.retry-note"
		run_scenario "$s" && ok=1
	fi
	res=FAIL; [ $ok = 1 ] && res=PASS
	{
		[ -f "$d.retry-note" ] && cat "$d.retry-note" && rm -f "$d.retry-note"
		printf '%s %-28s %3d s%s\n' "$res" "${s%.sh}" "$(( $(date +%s) - t ))" \
			"$( [ -f "$d/reason" ] && echo "  ($(cat "$d/reason"))")"
		# a scenario's one-line measurement (12-activation-time: the unit's activation time)
		[ -s "$d/share/summary" ] && echo "     ${s%.sh}: $(head -n1 "$d/share/summary")"
		if [ $res = FAIL ] || [ "${VMTEST_VERBOSE:-0}" = 1 ]; then
			if [ -f "$d/share/guest.log" ]; then
				echo "---- guest output ($d/share/guest.log) ----"
				cat "$d/share/guest.log"
			fi
			if [ $res = FAIL ]; then
				if [ -f "$d/share/journal.txt" ]; then
					echo "---- journal, hostprep lines ----"
					grep -E 'hostprep|vmtest-runner' "$d/share/journal.txt" | tail -n 40
				elif [ -f "$d/console.log" ]; then
					echo "---- serial console (last 40 lines of $d/console.log) ----"
					tail -n 40 "$d/console.log"
				fi
				[ -s "$d/qemu.log" ] && { echo "---- qemu ----"; tail -n 10 "$d/qemu.log"; }
			fi
			echo "----"
		fi
	} >"$d.report"
	echo $res >"$d.verdict"
}

# Scenarios run VMTEST_JOBS at a time (default: one per CPU, see below). A TCG
# guest keeps about one host CPU busy while it boots or runs Python (Ansible, Slurm), and
# waits idle through its timers (49's timeouts, 31's link waits), so two at a time on a
# 2-CPU CI machine finish the tier in a little over half the time; the boot timeouts
# are already sized for a loaded host (no_timer_check above). Longest first: the
# fleet engines' scenarios start while the short ones fill the other slot.
# At most one per CPU, four, and one per 3 GiB of available memory (a guest has 2 GiB).
JOBS=${VMTEST_JOBS:-}
if [ -z "$JOBS" ]; then
	JOBS=$(nproc 2>/dev/null || echo 1)
	mem=$(awk '/^MemAvailable:/ { print int($2 / 3145728) }' /proc/meminfo 2>/dev/null)
	[ "${mem:-1}" -lt "$JOBS" ] && JOBS=${mem:-1}
	[ "$JOBS" -gt 4 ] && JOBS=4
fi
[ "$JOBS" -ge 1 ] 2>/dev/null || JOBS=1
mapfile -t ORDER < <(for s in "${SEL[@]}"; do
	w=1; case $s in 7[0-9]-*) w=3 ;; 49-*|48-*|60-*|46-*) w=2 ;; esac
	echo "$w $s"; done | sort -s -k1,1nr | cut -d' ' -f2)
PASS=0 FAIL=0
report() { # NAME: print a finished scenario's report and count its verdict
	local d=$OUTROOT/$1
	cat "$d.report"
	if [ "$(cat "$d.verdict" 2>/dev/null)" = PASS ]; then
		PASS=$((PASS + 1))
	else
		FAIL=$((FAIL + 1))
	fi
	rm -f "$d.report" "$d.verdict"
}
declare -A RUNNING=()
for s in "${ORDER[@]}"; do
	while [ ${#RUNNING[@]} -ge "$JOBS" ]; do
		wait -n -p done_pid
		report "${RUNNING[$done_pid]}"
		unset "RUNNING[$done_pid]"
	done
	one "$s" &
	RUNNING[$!]=${s%.sh}
done
while [ ${#RUNNING[@]} -gt 0 ]; do
	wait -n -p done_pid
	report "${RUNNING[$done_pid]}"
	unset "RUNNING[$done_pid]"
done
echo "vm: total $(( $(date +%s) - T0 )) s (base image $TBASE s, ${#SEL[@]} scenarios, $JOBS at a time)"
echo "vm: $PASS passed, $FAIL failed"
if [ $FAIL -eq 0 ] && [ $PASS -eq 0 ]; then
	echo "vm: FAILED: no scenario ran: nothing was checked"
	exit 1
fi
[ $FAIL -eq 0 ]

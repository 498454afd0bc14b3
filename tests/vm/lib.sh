# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the host (run.sh, to build QEMU arguments from scenario files) and
# the guest (runner.sh, for the check script). Only bash, coreutils, setpci, jq.

# ---------------------------------------------------------------------------
# Host side: QEMU device snippets for scenario files (pure string functions).
# Root ports sit on pcie.0 at fixed slots so their addresses are known:
#   qemu_rootport 2  ->  0000:00:02.0
# ---------------------------------------------------------------------------

# qemu_rootport SLOT [extra pcie-root-port options]  -> bus id rpSLOT
qemu_rootport() {
	local slot=$1; shift
	local opts=${1:+,$1}
	printf -- '-device pcie-root-port,id=rp%d,bus=pcie.0,chassis=%d,slot=%d,addr=0x%x%s ' \
		"$slot" "$slot" "$slot" "$slot" "$opts"
}
# qemu_nic BUS [model]  -> a NIC on the internal hub (no outside traffic);
# its netdev id is net-BUS, its device id nic-BUS (for HMP set_link)
qemu_nic() {
	local bus=$1 model=${2:-virtio-net-pci}
	printf -- '-netdev hubport,id=net-%s,hubid=0 -device %s,id=nic-%s,netdev=net-%s,bus=%s ' \
		"$bus" "$model" "$bus" "$bus" "$bus"
}
# qemu_rootport_nic SLOT [model] [root port options]: root port with a NIC behind
qemu_rootport_nic() {
	qemu_rootport "$1" "${3:-}"
	qemu_nic "rp$1" "${2:-virtio-net-pci}"
}
# qemu_switch SLOT NDOWN: root port -> x3130 upstream -> NDOWN downstream ports
# (ids swSLOT_1..N), each with a NIC behind.
qemu_switch() {
	local slot=$1 n=$2 i
	qemu_rootport "$slot"
	printf -- '-device x3130-upstream,id=up%d,bus=rp%d ' "$slot" "$slot"
	for ((i = 1; i <= n; i++)); do
		printf -- '-device xio3130-downstream,id=sw%d_%d,bus=up%d,chassis=%d,slot=%d ' \
			"$slot" "$i" "$slot" "$((slot * 10 + i))" "$i"
		qemu_nic "sw${slot}_$i"
	done
}
# shellcheck disable=SC2034 # used by scenario files
QEMU_INTEL_IOMMU='-device intel-iommu,intremap=on,caching-mode=on'
# shellcheck disable=SC2034
QEMU_AMD_IOMMU='-device amd-iommu'

# ---------------------------------------------------------------------------
# Guest side: assertions. Each prints "ok - ..." or "FAIL - ..." and counts;
# the runner turns any failure into a non-zero exit status.
# ---------------------------------------------------------------------------
VMT_FAILS=0
VMT_CHECKS=0

ok() { VMT_CHECKS=$((VMT_CHECKS + 1)); echo "ok - $*"; }
fail() { VMT_CHECKS=$((VMT_CHECKS + 1)); VMT_FAILS=$((VMT_FAILS + 1)); echo "FAIL - $*"; }
note() { echo "# $*"; }

# assert_eq ACTUAL EXPECTED MESSAGE
assert_eq() {
	if [ "$1" = "$2" ]; then ok "$3 ($1)"; else fail "$3: got '$1', expected '$2'"; fi
}
assert_ne() {
	if [ "$1" != "$2" ]; then ok "$3 ($1)"; else fail "$3: got '$1', must differ"; fi
}
# assert_match TEXT ERE MESSAGE
assert_match() {
	if grep -Eq -- "$2" <<<"$1"; then ok "$3"; else fail "$3: /$2/ not in: $(head -c 2000 <<<"$1")"; fi
}
assert_no_match() {
	if ! grep -Eq -- "$2" <<<"$1"; then ok "$3"; else fail "$3: /$2/ unexpectedly in: $(head -c 2000 <<<"$1")"; fi
}
# run_cmd CMD...: run, keep stdout in $OUT, stderr in $ERR, status in $RC; log all.
run_cmd() {
	local e t0=$EPOCHREALTIME
	e=$(mktemp)
	OUT=$("$@" 2>"$e")
	RC=$?
	ERR=$(cat "$e")
	rm -f "$e"
	printf '$ %s -> exit %d (%.1f s)\n' "$*" "$RC" "$(bc_sub "$EPOCHREALTIME" "$t0")"
	[ -n "$OUT" ] && sed 's/^/  | /' <<<"$OUT" | head -n 60
	[ -n "$ERR" ] && sed 's/^/  ! /' <<<"$ERR" | head -n 30
	return 0
}
bc_sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a - b }'; }
# assert_rc EXPECTED MESSAGE CMD...: run_cmd and check the exit status
assert_rc() {
	local want=$1 msg=$2; shift 2
	run_cmd "$@"
	assert_eq "$RC" "$want" "$msg: exit status"
}
# assert_json JSON JQ-FILTER EXPECTED MESSAGE (filter output, raw)
assert_json() {
	local got
	got=$(jq -r "$2" <<<"$1" 2>&1)
	assert_eq "$got" "$3" "$4"
}

# ---------------------------------------------------------------------------
# Guest side: oracles independent of hostprep.
# ---------------------------------------------------------------------------
# acs_ctl BDF: ACS Control word as 4 lower-case hex digits (setpci, not hostprep)
acs_ctl() { setpci -s "$1" ECAP_ACS+0x6.w; }
acs_cap() { setpci -s "$1" ECAP_ACS+0x4.w; }
# assert_acs BDF EXPECTED(4 hex digits) MESSAGE
assert_acs() { assert_eq "$(acs_ctl "$1")" "$2" "${3:-setpci ACSCtl of $1}"; }
# every PCI device with an ACS capability (full addresses), per lspci
# (one lspci process: under TCG a setpci per device costs ~0.4 s each)
acs_ports() {
	lspci -D -vv 2>/dev/null | awk '/^[0-9a-f][0-9a-f][0-9a-f][0-9a-f]:/ { dev = $1 }
		/Capabilities: \[[0-9a-f]+ v[0-9]+\] Access Control Services/ { print dev }'
}
# iommu_group_types: sorted unique types of all IOMMU groups ("" if none)
iommu_group_types() {
	cat /sys/kernel/iommu_groups/*/type 2>/dev/null | sort -u | tr '\n' ' ' | sed 's/ $//'
}
# json_result JSON CHECK OBJECT FIELD: one field of one result
json_result() {
	jq -r --arg c "$2" --arg o "$3" \
		"[.results[] | select(.check == \$c and .object == \$o)] | .[0].$4 // \"<none>\"" <<<"$1"
}
# Remove and rescan a PCI device (the kernel re-enumerates and re-writes ACS).
pci_remove_rescan() {
	echo 1 >"/sys/bus/pci/devices/$1/remove"
	echo 1 >/sys/bus/pci/rescan
	local i=0
	while [ ! -e "/sys/bus/pci/devices/$1" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
}
# as_user USER CMD...: run unprivileged (no capabilities, no supplementary groups)
as_user() {
	local u=$1; shift
	setpriv --reuid="$(id -u "$u")" --regid="$(id -g "$u")" --clear-groups \
		--inh-caps=-all --reset-env "$@"
}

# ---------------------------------------------------------------------------
# Guest side: hostprep helpers (still judged against the oracles above).
# ---------------------------------------------------------------------------
# unit_prop UNIT PROP: one property of a systemd unit, value only
unit_prop() { systemctl show -P "$2" "$1" 2>/dev/null; }

# assert_booted_service: hostprep.service ran at this boot from the installed unit
assert_booted_service() {
	# (merged /usr: systemd may name it /lib/systemd/system/...)
	assert_eq "$(readlink -f "$(unit_prop hostprep.service FragmentPath)")" \
		/usr/lib/systemd/system/hostprep.service "hostprep.service loaded from the installed unit file"
	assert_eq "$(unit_prop hostprep.service UnitFileState)" enabled "hostprep.service is enabled"
	local started
	started=$(unit_prop hostprep.service ExecMainStartTimestampMonotonic)
	if [ -n "$started" ] && [ "$started" != 0 ]; then
		ok "hostprep.service ran at boot (started at ${started} us)"
	else
		fail "hostprep.service did not run at boot"
	fi
}

# assert_acs_results_match_setpci JSON: every "acs" result's actual word is what
# setpci reads now (the report describes the hardware, not hostprep's intent)
assert_acs_results_match_setpci() {
	local json=$1 obj actual hw n=0
	while IFS=$'\t' read -r obj actual; do
		[ -n "$obj" ] || continue
		n=$((n + 1))
		hw=$(acs_ctl "$obj")
		assert_match "$actual" "^0x$hw( |$)" "report's ACS word for $obj agrees with setpci (0x$hw)"
	done < <(jq -r '.results[] | select(.check == "acs") | [.object, .actual] | @tsv' <<<"$json")
	[ $n -gt 0 ] || fail "report has no \"acs\" results"
}

# hp_verdict JSON CHECK OBJECT
hp_verdict() { json_result "$1" "$2" "$3" verdict; }

# iommu_expect_check VERDICT SEEN: the boot run and a `check` agree on
# iommu.mode/host with VERDICT, and its actual text names SEEN (the group
# types, or "off"), as read by the oracle.
iommu_expect_check() {
	local want=$1 seen=$2 js t
	assert_booted_service
	if [ "$want" = pass ]; then
		assert_eq "$(systemctl show -p Result hostprep.service)" Result=success "hostprep.service result"
	else
		assert_ne "$(systemctl show -p Result hostprep.service)" Result=success "hostprep.service must not succeed"
	fi
	run_cmd hostprep status --json
	assert_eq "$(hp_verdict "$OUT" iommu.mode host)" "$want" "boot report: iommu.mode/host verdict"
	assert_rc "$([ "$want" = pass ] && echo 0 || echo 1)" "hostprep check --json" hostprep check --json
	js=$OUT
	assert_eq "$(hp_verdict "$js" iommu.mode host)" "$want" "check: iommu.mode/host verdict"
	assert_json "$js" '[.results[] | select(.check == "iommu.mode")] | length' 1 "check: one iommu.mode result"
	assert_match "$(json_result "$js" iommu.mode host expected)" passthrough "check: expected names passthrough"
	for t in $seen; do
		assert_match "$(json_result "$js" iommu.mode host actual)" "(^|[^A-Za-z-])$t([^A-Za-z-]|$)" \
			"check: actual names what the kernel has ($t)"
	done
	if [ "$want" != pass ]; then
		assert_ne "$(json_result "$js" iommu.mode host remedy)" "<none>" "check: a failing result has a remedy"
	fi
}

# ---------------------------------------------------------------------------
# Kernel modules (issue 7). Oracles: the kernel's /sys/module and kmod's own
# tools (lsmod, modinfo, modprobe), never hostprep's words. The test modules
# are built by build.sh from tests/vm/modules/ and installed in the image:
#   updates/erdma.ko          Alibaba-like: compat_mode (bool, 0444), version 1.4.0-vmtest
#   kernel/drivers/infiniband/hw/erdma/erdma.ko   mainline-like: no parameters
#   updates/erdma_holder.ko   uses an erdma symbol: erdma refcnt 1, holders/erdma_holder
#   updates/dkms/mlx_compat.ko, updates/dkms/mlx5_ofed.ko (depends on mlx_compat), 24.10-1.1.4
#   /usr/lib/vmtest/erdma-rebuilt.ko  compat build, version 1.4.1-vmtest (other srcversion)
# Each erdma logs "vmtest erdma VARIANT: loaded in MODE mode" / "...: unloaded".
# ---------------------------------------------------------------------------
# shellcheck disable=SC2034 # used by scenario files
KVER_GUEST=$(uname -r 2>/dev/null)

# mod_state NAME: live|coming|going (initstate), builtin (a /sys/module dir
# without initstate), or "not loaded"
mod_state() {
	if [ -r "/sys/module/$1/initstate" ]; then
		cat "/sys/module/$1/initstate"
	elif [ -d "/sys/module/$1" ] && [ ! -e "/sys/module/$1/refcnt" ]; then
		echo builtin
	else
		echo "not loaded"
	fi
}
# mod_param NAME KEY: the kernel's value, or <none> when there is no such parameter
mod_param() { cat "/sys/module/$1/parameters/$2" 2>/dev/null || echo "<none>"; }
mod_refcnt() { cat "/sys/module/$1/refcnt" 2>/dev/null || echo "<none>"; }
# mod_holders NAME: holder modules, space-separated, sorted
mod_holders() { ls "/sys/module/$1/holders" 2>/dev/null | sort | tr '\n' ' ' | sed 's/ $//'; }
# lsmod_line NAME: lsmod's line for NAME ("" when not loaded); lsmod reads /proc/modules.
# A module that udev loads or drops while lsmod walks the list (edac_mce_amd failing
# its probe under TCG) makes libkmod miss its holders directory, complain on stderr and
# cut the listing short: such a listing is taken again (up to 5 times), never judged.
lsmod_line() {
	local out err i
	for i in 1 2 3 4 5; do
		err=$(mktemp)
		out=$(lsmod 2>"$err") && [ ! -s "$err" ] && { rm -f "$err"; break; }
		echo "# lsmod try $i: $(head -c 300 "$err")" >&2
		rm -f "$err"
		sleep 1
	done
	awk -v m="$1" '$1 == m' <<<"$out"
}
# modinfo_field NAME FIELD: what kmod resolves NAME to on disk now
modinfo_field() { modinfo -F "$2" "$1" 2>/dev/null; }
# kmsg_count ERE: kernel log lines of this boot matching ERE
kmsg_count() { dmesg 2>/dev/null | grep -Ec -- "$1"; }

assert_mod_state() { assert_eq "$(mod_state "$1")" "$2" "${3:-/sys/module/$1/initstate}"; }
assert_mod_param() { assert_eq "$(mod_param "$1" "$2")" "$3" "${4:-/sys/module/$1/parameters/$2}"; }
# assert_lsmod NAME yes|no [MESSAGE]
assert_lsmod() {
	local l
	l=$(lsmod_line "$1")
	if [ "$2" = yes ]; then
		if [ -n "$l" ]; then ok "${3:-lsmod lists $1} ($l)"; else fail "${3:-lsmod lists $1}: not listed"; fi
	else
		if [ -z "$l" ]; then ok "${3:-lsmod does not list $1}"; else fail "${3:-lsmod does not list $1}: $l"; fi
	fi
}

# hp_module_results JSON: the module/gpudirect results, one line each (for the log)
hp_module_results() {
	jq -r '.results[] | select(.check | test("^module|^gpudirect")) |
		"  \(.verdict) \(.check) \(.object): \(.actual // "") | \(.remedy // "")"' <<<"$1"
}
# assert_hp JSON CHECK OBJECT VERDICT [MESSAGE]
assert_hp() {
	assert_eq "$(hp_verdict "$1" "$2" "$3")" "$4" "${5:-hostprep: $2 $3 verdict}"
}
# assert_hp_text JSON CHECK OBJECT FIELD ERE MESSAGE: a field of one result matches
assert_hp_text() {
	local v
	v=$(json_result "$1" "$2" "$3" "$4")
	if [ "$v" = "<none>" ] || [ "$v" = null ]; then
		fail "$6: no $4 in a $2 $3 result"
	else
		assert_match "$v" "$5" "$6"
	fi
}
# assert_hp_not_pass JSON CHECK OBJECT MESSAGE: present and not pass/skip
assert_hp_not_pass() {
	local v
	v=$(hp_verdict "$1" "$2" "$3")
	case $v in
	fail | unknown) ok "$4 ($v)" ;;
	*) fail "$4: verdict '$v', expected fail (or unknown)" ;;
	esac
}

# Guest prep side (guest_prep runs chrooted before systemd; no /proc):
# prep_file PATH LINE...: write a file of the root filesystem
prep_file() {
	local p=$1; shift
	mkdir -p "$(dirname "$p")"
	printf '%s\n' "$@" >"$p"
}
# prep_kver: the one kernel installed in the image
prep_kver() { ls /lib/modules | head -n1; }
# prep_select_mainline_erdma: the kernel-tree (mainline-like) erdma becomes
# the one modprobe resolves: remove Alibaba's from updates/, rerun depmod
prep_select_mainline_erdma() {
	local k
	k=$(prep_kver)
	rm -f "/lib/modules/$k/updates/erdma.ko" "/lib/modules/$k/updates/erdma_holder.ko"
	depmod "$k"
}
# modprobe_conf NAME: kmod's merged configuration lines about NAME
# (options/blacklist/install/softdep), as `modprobe -c` prints them
modprobe_conf() { modprobe -c 2>/dev/null | grep -E "^(options|blacklist|install|remove|softdep) $1( |\$)"; }
# assert_file_removed_by PATH MESSAGE CMD...: PATH existed before CMD ran and not after
assert_file_removed_by() {
	local p=$1 msg=$2 before
	shift 2
	before=$(test -e "$p" && echo present || echo absent)
	run_cmd "$@"
	if [ "$before" = absent ]; then
		fail "$msg: $p did not exist before '$*' (nothing to remove)"
	elif [ -e "$p" ]; then
		fail "$msg: $p still there after '$*' (exit $RC)"
	else
		ok "$msg ('$*' exit $RC)"
	fi
}

# ---------------------------------------------------------------------------
# RDMA ports and bonding (issue 8). Cable pulls come from the host's QEMU
# monitor (run.sh: QEMU_LINKS_DOWN at power-on, or the guest's requests
# below); oracles are the kernel's own tools: `rdma link` (RDMA netlink),
# `ibv_devinfo` (verbs), /sys/class/infiniband, /proc/net/bonding, `ip -d link`.
# ---------------------------------------------------------------------------
VMT_SHARE=/mnt/vmtest
# hmp_later DELAY COMMAND...: ask the host to send an HMP command to this VM's
# monitor after DELAY seconds (e.g. "set_link nic-rp3 off"); returns at once,
# prints the request id
hmp_later() {
	local delay=$1 id
	shift
	id=$(date +%s%N)-$RANDOM
	printf '%s %s\n' "$delay" "$*" >"$VMT_SHARE/hmp/$id.tmp" && mv "$VMT_SHARE/hmp/$id.tmp" "$VMT_SHARE/hmp/$id.req"
	echo "$id"
}
# hmp_wait ID [TIMEOUT]: until the host has sent request ID; 0 when it has
hmp_wait() {
	local i=0 n=$(( ${2:-15} * 10 ))
	while [ ! -f "$VMT_SHARE/hmp/$1.done" ] && [ $i -lt "$n" ]; do sleep 0.1; i=$((i + 1)); done
	[ -f "$VMT_SHARE/hmp/$1.done" ]
}
# hmp COMMAND...: send now and wait until it was sent (not for its effect)
hmp() {
	local id
	id=$(hmp_later 0 "$@")
	if hmp_wait "$id"; then note "hmp: $* (sent)"; else fail "hmp: '$*' not sent by the host"; return 1; fi
}
# wait_until TIMEOUT CMD...: re-run CMD every 0.2 s until it succeeds (the
# test's own patience, not the product's)
wait_until() {
	local t=$1 i=0
	shift
	until "$@"; do
		i=$((i + 1))
		[ $i -ge $((t * 5)) ] && return 1
		sleep 0.2
	done
}
# nic_behind SLOT: netdev of the NIC behind root port 00:SLOT.0 (qemu_rootport_nic)
# Waits for udev first (up to 30 s): with the fleet packages in the image, udev's coldplug
# loads virtio_net and renames eth0 to enp1s0 after the system reports running, and a
# scenario that took "eth0" (32: enslaved to a bond) lost it to the rename.
nic_behind() {
	local d i
	udevadm settle --timeout=30 2>/dev/null
	for ((i = 0; i < 150; i++)); do
		for d in /sys/bus/pci/devices/0000:00:"$(printf %02x "$1")".0/0000:*/virtio*/net/*; do
			[ -e "$d" ] && { basename "$d"; return 0; }
		done
		sleep 0.2
	done
	return 1
}
# rdma_link DEV/PORT: `rdma link show`'s "state X physical_state Y" words
rdma_link() { rdma link show "$1" 2>&1; }
rdma_state() { rdma link show "$1" 2>/dev/null | sed -n 's/.* state \([A-Z_]*\) .*/\1/p'; }
rdma_phys() { rdma link show "$1" 2>/dev/null | sed -n 's/.* physical_state \([A-Z_]*\).*/\1/p'; }
# ibv_port_field DEV PORT FIELD: one field (state, phys_state, active_mtu, ...) of ibv_devinfo
ibv_port_field() {
	ibv_devinfo -v -d "$1" -i "$2" 2>/dev/null | awk -v f="$3:" '$1 == f { $1 = ""; sub(/^ /, ""); print; exit }'
}
# sys_port DEV PORT FILE: /sys/class/infiniband/DEV/ports/PORT/FILE
sys_port() { cat "/sys/class/infiniband/$1/ports/$2/$3" 2>&1; }
# gid_index_of DEV PORT TYPE TEXT: first GID index whose type is TYPE and whose
# GID contains TEXT (e.g. "RoCE v2" "ffff:c0a8"), from sysfs; "" if none
gid_index_of() {
	local g i t
	for g in /sys/class/infiniband/"$1"/ports/"$2"/gids/*; do
		i=${g##*/}
		t=$(cat "/sys/class/infiniband/$1/ports/$2/gid_attrs/types/$i" 2>/dev/null)
		[ "$t" = "$3" ] && grep -q -- "$4" "$g" 2>/dev/null && { echo "$i"; return; }
	done
}
# carrier IF: the kernel's carrier bit (1/0)
carrier() { cat "/sys/class/net/$1/carrier" 2>/dev/null || echo "?"; }
# bond_info BOND: /proc/net/bonding/BOND (the bonding driver's own report)
bond_info() { cat "/proc/net/bonding/$1" 2>&1; }
# bond_active_slave BOND: "Currently Active Slave"
bond_active_slave() { bond_info "$1" | sed -n 's/^Currently Active Slave: //p'; }
# bond_slave_field BOND SLAVE FIELD: a per-slave line of /proc/net/bonding
# ("MII Status", "Aggregator ID", "Link Failure Count"), first occurrence
bond_slave_field() {
	bond_info "$1" | awk -v s="$2" -v f="$3" '
		/^Slave Interface: / { cur = $3 }
		cur == s && index($0, f ": ") == 1 { sub(f ": ", ""); print; exit }'
}
# bond_partner_mac BOND: the 802.3ad partner MAC of the bond (bond-wide line)
bond_partner_mac() { bond_info "$1" | awk '/^802.3ad info/ { a = 1 } a && /Partner Mac Address: / { print $4; exit }'; }
# hp_port_results JSON: rdma.*/bond*/workload.* results, one line each (for the log)
hp_issue8_results() {
	jq -r '.results[] | select(.check | test("^rdma|^bond|^workload")) |
		"  \(.verdict) \(.check) \(.object): \(.actual // "") | \(.remedy // "")"' <<<"$1"
}

# Guest prep side (issue 8):
# prep_boot_unit NAME BEFORE SCRIPT: a oneshot unit vmtest-NAME.service that
# runs SCRIPT (bash) at boot after udev has settled, Before= the units in
# BEFORE (e.g. hostprep.service), wanted by multi-user.target
prep_boot_unit() {
	local name=$1 before=$2 script=$3
	prep_file "/usr/local/sbin/vmtest-$name" '#!/bin/bash' ". /mnt/vmtest/lib.sh" "$script"
	chmod 755 "/usr/local/sbin/vmtest-$name"
	prep_file "/etc/systemd/system/vmtest-$name.service" \
		'[Unit]' "Description=vmtest: $name" \
		'# the NICs are named (udev) before we look them up' \
		'Wants=systemd-udev-settle.service' 'After=systemd-udev-settle.service' \
		'RequiresMountsFor=/mnt/vmtest' \
		"${before:+Before=$before}" \
		'[Service]' 'Type=oneshot' 'RemainAfterExit=yes' \
		"ExecStart=/usr/local/sbin/vmtest-$name" \
		'StandardOutput=journal+console' \
		'[Install]' 'WantedBy=multi-user.target'
	mkdir -p /etc/systemd/system/multi-user.target.wants
	ln -sf "/etc/systemd/system/vmtest-$name.service" /etc/systemd/system/multi-user.target.wants/
}
# rxe_add NAME SLOT [ADDR/LEN]: (at boot, in a prep_boot_unit script) the NIC
# behind root port SLOT admin-up (with an IPv4 address: a RoCE v2 GID
# carrying it), an rdma_rxe device NAME on it
rxe_add() {
	local ifc
	ifc=$(nic_behind "$2") || { echo "rxe_add: no NIC behind slot $2"; return 1; }
	[ -z "${3:-}" ] || ip addr add "$3" dev "$ifc" || return 1
	modprobe rdma_rxe && ip link set "$ifc" up && rdma link add "$1" type rxe netdev "$ifc" &&
		echo "rxe_add: $1 on $ifc: $(rdma link show "$1/1")"
}
# prep_service NAME SCRIPT: a long-running (Type=exec) unit vmtest-NAME.service
# started early at boot, with no ordering against hostprep (a watcher)
prep_service() {
	local name=$1 script=$2
	prep_file "/usr/local/sbin/vmtest-$name" '#!/bin/bash' ". /mnt/vmtest/lib.sh" "$script"
	chmod 755 "/usr/local/sbin/vmtest-$name"
	prep_file "/etc/systemd/system/vmtest-$name.service" \
		'[Unit]' "Description=vmtest: $name" 'DefaultDependencies=no' \
		'RequiresMountsFor=/mnt/vmtest' \
		'[Service]' 'Type=exec' "ExecStart=/usr/local/sbin/vmtest-$name" \
		'[Install]' 'WantedBy=multi-user.target'
	mkdir -p /etc/systemd/system/multi-user.target.wants
	ln -sf "/etc/systemd/system/vmtest-$name.service" /etc/systemd/system/multi-user.target.wants/
}
# ts_epoch TEXT: a date/time text (ip -ts, systemctl --timestamp=us+utc) as epoch seconds.µs
ts_epoch() { [ -n "$1" ] && date -d "$1" +%s.%6N 2>/dev/null; }
# carrier_is IF 0|1, unit_state_is UNIT STATE...: for wait_until (re-read each time)
carrier_is() { [ "$(carrier "$1")" = "$2" ]; }
unit_state_not() { [ "$(unit_prop "$1" ActiveState)" != "$2" ]; }

# ---------------------------------------------------------------------------
# Guest side: the Debian package (scenarios with HOSTPREP_INSTALL=deb).
# ---------------------------------------------------------------------------
# deb_file deb|deb-up: the package run.sh put in the share (current / higher version)
deb_file() { ls /mnt/vmtest/"$1"/hostprep_*.deb | head -n1; }
# acs_snapshot: "ADDR ACSCTL" for every ACS-capable device (setpci)
acs_snapshot() {
	local p
	for p in $(acs_ports); do echo "$p $(acs_ctl "$p")"; done
}
# fs_snapshot: every path under /etc and /usr with its type (what a package
# can create; /lib, /bin, /sbin are /usr on this merged-/usr guest)
fs_snapshot() { find /etc /usr -xdev -printf '%p %y\n' 2>/dev/null | sort; }

# ---------------------------------------------------------------------------
# Guest side: fleet/ansible with ansible-core, local connection (71, 72).
# ---------------------------------------------------------------------------
AN_PLAY=/root/play
# an_setup: the role as the .deb ships it (dpkg-deb -x: the package itself is
# not installed), an inventory for the local connection
an_setup() {
	export LC_ALL=C.UTF-8 HOME=/root
	mkdir -p "$AN_PLAY" /tmp/debx
	dpkg-deb -x "$(deb_file deb)" /tmp/debx || { fail "dpkg-deb -x the package"; return 1; }
	cp -r /tmp/debx/usr/share/doc/hostprep/examples/fleet/ansible/roles "$AN_PLAY/"
	assert_eq "$(ls "$AN_PLAY/roles/hostprep/tasks" | tr "\n" " ")" "main.yml preview.yml " "the packaged role is there"
	printf 'localhost ansible_connection=local ansible_python_interpreter=/usr/bin/python3\n' \
		>"$AN_PLAY/inventory"
}
# an_write_play NAME DROPIN-CONTENT: a playbook running the role on localhost
# with the .deb file and one drop-in, 50-site.conf; it prints the facts
an_write_play() {
	local content
	content=$(printf '%s\n' "$2" | sed 's/^/          /')
	cat >"$AN_PLAY/$1.yml" <<PLAY
- name: hostprep
  hosts: localhost
  become: true
  gather_facts: false
  vars:
    hostprep_package_file: $(deb_file deb)
    hostprep_dropins:
      - name: 50-site.conf
        content: |
$content
  roles:
    - role: hostprep
  post_tasks:
    - name: Show the facts
      ansible.builtin.debug:
        msg: "FACTS ready={{ hostprep_ready }} results={{ hostprep_status.results | default([]) | length }} command={{ hostprep_status.command | default('none') }}"
PLAY
}
# an_play NAME [ARGS]: ansible-playbook NAME.yml; sets OUT ERR RC (run_cmd) and
# RECAP ("changed=N unreachable=N failed=N" of the PLAY RECAP line)
an_play() {
	local name=$1
	shift
	run_cmd env ANSIBLE_ROLES_PATH="$AN_PLAY/roles" ANSIBLE_NOCOLOR=1 ANSIBLE_PIPELINING=1 \
		ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_INVENTORY_UNPARSED_WARNING=0 \
		ansible-playbook -i "$AN_PLAY/inventory" "$AN_PLAY/$name.yml" "$@"
	RECAP=$(grep -Eo 'changed=[0-9]+ +unreachable=[0-9]+ +failed=[0-9]+' <<<"$OUT" | tr -s ' ')
}
an_recap() { grep -Eo "$1=[0-9]+" <<<"$RECAP" | cut -d= -f2; }
sha_of() { sha256sum "$1" 2>/dev/null | cut -c1-64; }

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

# [Workload] config: every bad value is exit 2 with file:line, nothing read; a good one
# dumps and reads back; no [Workload] section means no workload result at all.
newroot workload-ib

# wconf LINE...: <root>/etc/hostprep/hostprep.conf from the lines given
wconf() {
	printf '%s\n' "$@" >"$R/etc/hostprep/hostprep.conf"
}

# bad LINE-NO LINE...: the config must be refused naming hostprep.conf:LINE-NO
bad() {
	local line=$1
	shift
	wconf "$@"
	hp check
	expect_rc 2
	grep -q "hostprep\.conf:$line:" "$T/err" || fail "[$*]: stderr lacks hostprep.conf:$line: $(head -c 300 "$T/err")"
	grep -q "workload\." "$T/out" && fail "[$*]: a workload result despite the bad config"
}

bad 2 "[Workload]" "MinMemlock=lots"
bad 2 "[Workload]" "MinMemlock=64m"
bad 2 "[Workload]" "MinMemlock=-1"
bad 2 "[Workload]" "MinMemlock=64 M"
bad 2 "[Workload]" "MinMemlock=17179869184T"
bad 3 "[Workload]" "DeviceNodes=yes" "MinMemlock=99999999999999999999999"
bad 2 "[Workload]" "DeviceNodes=maybe"
bad 2 "[Workload]" "NetnsMode=private"
bad 2 "[Workload]" "MemlockUnits=containerd"
bad 2 "[Workload]" "MemlockUnits=containerd.service ../x.service"
bad 2 "[Workload]" "Memlock=64M"
bad 4 "[Workload]" "MinMemlock=64M" "" "[Workload]"
grep -q "MinMemlock=: invalid size 'lots'" "$T/err.1" || fail "the message does not quote the bad size: $(cat "$T/err.1")"

# A good one: every key, dump, and the dump read back gives the same dump.
wconf "[Workload]" "MemlockUnits=containerd.service" "MemlockUnits=kubelet.service" \
	"MinMemlock=65536" "DeviceNodes=yes" "NetnsMode=exclusive"
hp config
expect_rc 0
cp "$T/out" "$T/dump1"
for want in '^MemlockUnits=containerd.service$' '^MemlockUnits=kubelet.service$' \
	'^MinMemlock=64K$' '^DeviceNodes=yes$' '^NetnsMode=exclusive$'; do
	expect_grep dump1 "$want"
done
expect_no_grep dump1 'docker.service' "an explicit MemlockUnits= keeps the default units"
cp "$T/dump1" "$R/etc/hostprep/hostprep.conf"
hp config
expect_rc 0
diff <(grep -v '^#' "$T/dump1") <(grep -v '^#' "$T/out") >/dev/null || fail "the dump does not read back to itself"

# Defaults: the four runtimes; an emptied list stays empty across a dump.
wconf "[Workload]"
hp config
for u in containerd docker crio kubelet; do
	expect_grep out "^MemlockUnits=$u.service$"
done
expect_grep out '^MinMemlock=$'
wconf "[Workload]" "MemlockUnits="
hp config
cp "$T/out" "$R/etc/hostprep/hostprep.conf"
hp config
expect_no_grep out '^MemlockUnits=.+' "an emptied MemlockUnits= came back from the dump"

# No [Workload] section, or one with nothing to check: no workload result, exit as before.
rm -f "$R/etc/hostprep/hostprep.conf"
hp --json check
jqo '.results[].check' | grep -q '^workload' && fail "workload results without a [Workload] section"
wconf "[Workload]"
hp --json check
jqo '.results[].check' | grep -q '^workload' && fail "workload results from an empty [Workload] section"
true

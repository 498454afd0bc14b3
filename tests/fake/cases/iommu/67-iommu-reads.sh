# IOMMU reads follow what [IOMMU] Expect= needs (issue 11): with Expect=any no group's
# type file is read (the result says "on", units and group count); with a mode to check
# every type is read, and the groups' members and drivers only when the mode misses it
# (the remedy names them). An [ACS] rule reads the type of each distinct group below its
# selected ports, once per group (the acs.iommu warning; issue 26: not per function), and
# none below a port already known to have a translated one.
need_tool strace
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
iommu_opens() { # CONF -> "types N members N" for one check under strace
	useconf "$1"
	strace -f -y -e trace=open,openat,openat2 -o "$T/$1.strace" "$BIN" --root "$R" --no-color -v check \
		</dev/null >"$T/out" 2>"$T/err"
	RC=$?
	echo "\$ strace hostprep check ($1) -> exit $RC" >>"$T/transcript"
	echo "$RC $1" >>"$T/strace-exits" # checked at the end: this runs in $(...)
	echo "types $(grep -Ec 'iommu_groups(/[0-9]+|>, "[0-9]+)/type"' "$T/$1.strace")" \
		"members $(grep -Ec 'iommu_groups(/[0-9]+|>, "[0-9]+)/devices"' "$T/$1.strace")"
}
newroot dgx8
got=$(iommu_opens iommu-any)
[ "$got" = "types 0 members 0" ] || fail "Expect=any: read group types or members: $got"
got=$(iommu_opens gpu-p2p)
# dgx8: 28 groups below the 12 ports gpu-p2p selects (39 in all), every one DMA: a type is
# read only while a port above the function has no translated function yet, so the first
# function below each port is read and the rest are not
[ "$got" = "types 12 members 0" ] || fail "Expect=any, gpu-p2p, DMA groups: want one type per selected port: $got"
expect_grep out '^WARN +acs\.iommu +host .* below 12 selected ports '
# identity groups translate nothing: all 28 types below the ports are read, once each
for t in "$R"/sys/kernel/iommu_groups/*/type; do echo identity >"$t"; done
got=$(iommu_opens gpu-p2p)
[ "$got" = "types 28 members 0" ] || fail "Expect=any, gpu-p2p, identity groups: want the 28 types below the ports once each: $got"
expect_no_grep out 'acs\.iommu' "identity groups and an acs.iommu result"
for t in "$R"/sys/kernel/iommu_groups/*/type; do echo DMA >"$t"; done
expect_grep out '^SKIP +iommu\.mode +host +any +not declared \(Expect=any\): on \(units: dmar0,dmar1; groups: 39, type not read for Expect=any;'
got=$(iommu_opens iommu-translated)
[ "$got" = "types 39 members 0" ] || fail "Expect=translated (met): want 39 types, no members: $got"
expect_grep out '^PASS +iommu\.mode +host +translated +translated \(units: dmar0,dmar1; groups: 39 DMA;'
got=$(iommu_opens iommu-pt)
[ "$got" = "types 39 members 39" ] || fail "Expect=passthrough (missed): want types and members: $got"
expect_grep out '^FAIL +iommu\.mode +host +passthrough +translated '
while read -r rc conf; do
	expect_exited "$rc" "check under strace ($conf)"
done <"$T/strace-exits"

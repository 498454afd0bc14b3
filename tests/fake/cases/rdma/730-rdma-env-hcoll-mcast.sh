# rdma.env and HCOLL's multicast (issue 27 §9). HCOLL's multicast collectives join IB
# multicast groups through librdmacm, which opens /dev/infiniband/rdma_cm: where HCOLL is
# on (a umad node exists) but that node is missing, as in a pod given uverbs and umad
# only, rdma.env keeps HCOLL on its port and turns its multicast off
# (HCOLL_ENABLE_MCAST_ALL=0) with the reason, and rdma.hcoll says so. The three states:
# multicast on (both nodes), multicast off (umad, no rdma_cm), HCOLL off (no umad, or
# HCOLL=no: nothing said of multicast then).
newroot ib-gpu
useconf rdma-ib-gpu
E=$R/run/hostprep/rdma.env
D=$R/dev/infiniband
WHY='no /dev/infiniband/rdma_cm node \(HCOLL.s multicast joins its groups through librdmacm; a pod needs it passed in\)'
mkdir -p "$D"
: >"$D/uverbs0"
: >"$D/umad0"

# check (exit 1: mlx5_3 is down), and the report's rdma.hcoll line in out
check() {
	hp check
	expect_rc 1
	[ -f "$E" ] || fail "$1: no rdma.env"
}

# umad and rdma_cm: HCOLL on its port, multicast left to HCOLL
: >"$D/rdma_cm"
check "mcast on"
expect_grep "$E" '^HCOLL_MAIN_IB=mlx5_0:1$'
expect_no_grep "$E" 'MCAST|multicast' "multicast turned off with rdma_cm present"
expect_no_grep "$E" 'hcoll_enable' "HCOLL on, yet turned off"
expect_grep out '^PASS +rdma\.hcoll +host +HCOLL on a port +on: HCOLL_MAIN_IB=mlx5_0:1$'

# umad without rdma_cm: HCOLL on, its multicast off, the reason just above the line
rm "$D/rdma_cm"
: >"$D/rdma_cm_old" # only the exact name is the node
check "mcast off"
cp "$E" "$T/mcast-off.env"
expect_grep "$E" '^HCOLL_MAIN_IB=mlx5_0:1$'
expect_grep "$E" "^# HCOLL multicast off: $WHY\$"
expect_grep "$E" '^HCOLL_ENABLE_MCAST_ALL=0$'
grep -A1 '^# HCOLL multicast off: ' "$E" | tail -1 | grep -qx 'HCOLL_ENABLE_MCAST_ALL=0' ||
	fail "the multicast reason is not the line above HCOLL_ENABLE_MCAST_ALL=0"
expect_no_grep "$E" 'hcoll_enable' "HCOLL turned off for want of multicast"
# (the text table cuts the reason; the JSON report has it whole)
expect_grep out '^PASS +rdma\.hcoll +host +HCOLL on a port +on: HCOLL_MAIN_IB=mlx5_0:1, multicast off: '
hp --json check
[ "$(jqo '.results[] | select(.check == "rdma.hcoll") | .actual')" = \
	"on: HCOLL_MAIN_IB=mlx5_0:1, multicast off: no /dev/infiniband/rdma_cm node (HCOLL's multicast joins its groups through librdmacm; a pod needs it passed in)" ] ||
	fail "rdma.hcoll's actual in JSON: $(jqo '.results[] | select(.check == "rdma.hcoll") | .actual')"
hp env
cmp -s "$T/out" "$T/mcast-off.env" || fail "hostprep env differs from the file: $(diff "$T/mcast-off.env" "$T/out")"
cp "$T/mcast-off.env" "$T/out"
RC=0
golden rdma-env-mcast-off.env

# no umad (and no rdma_cm): HCOLL off, nothing said of its multicast
rm "$D/umad0"
check "HCOLL off"
expect_grep "$E" '^# HCOLL off: no /dev/infiniband/umad\* node '
expect_grep "$E" '^OMPI_MCA_coll_hcoll_enable=0$'
expect_no_grep "$E" 'MCAST|multicast|HCOLL_MAIN_IB' "HCOLL off, yet a port or its multicast"
expect_grep out '^PASS +rdma\.hcoll +host +HCOLL on a port +off: no /dev/infiniband/umad\* node '
expect_no_grep out 'multicast' "rdma.hcoll off speaks of multicast"

# HCOLL=no with umad and no rdma_cm: off by the admin, nothing said of multicast
: >"$D/umad0"
mkdir -p "$R/etc/hostprep/hostprep.conf.d"
printf '[Port:rails]\nHCOLL=no\n' >"$R/etc/hostprep/hostprep.conf.d/50-hcoll.conf"
check "HCOLL=no"
expect_grep "$E" '^# HCOLL off: \[Port:rails\] HCOLL=no$'
expect_grep "$E" '^OMPI_MCA_coll_hcoll_enable=0$'
expect_no_grep "$E" 'MCAST|multicast|HCOLL_MAIN_IB' "HCOLL=no, yet a port or its multicast"
expect_grep out '^PASS +rdma\.hcoll +host +HCOLL on a port +off: \[Port:rails\] HCOLL=no$'

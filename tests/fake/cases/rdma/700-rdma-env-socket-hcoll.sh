# rdma.env's NCCL_SOCKET_IFNAME and HCOLL (issue 27 §9). NCCL's bootstrap binds an address
# of each NCCL_SOCKET_IFNAME interface: an IPoIB netdev that is up without an address is
# left out (and named in a comment), an IPv6 link-local address is not one NCCL can use,
# an IPv4 or global IPv6 one is. The addresses come from the record a snapshot makes
# (run/hostprep/snapshot/addresses.txt: "IFNAME FAMILY SCOPE"); without one the netdevs
# that are up are listed and the file says the addresses were not read. SocketInterface=
# replaces the derived list. Open MPI's HCOLL gets the first passing port where a umad
# node exists, and is turned off with the reason where none exists or HCOLL=no says so.
newroot ib-gpu
useconf rdma-ib-gpu
E=$R/run/hostprep/rdma.env
REC=$R/run/hostprep/snapshot/addresses.txt
for i in 0 1 2 3; do
	echo up >"$R/sys/class/net/ib$i/operstate"
done
envfile() { # GOLDEN: check (exit 1: mlx5_3 is down), then the file is the golden
	hp check
	expect_rc 1
	[ -f "$E" ] || { fail "$1: no rdma.env"; return; }
	cp "$E" "$T/out"
	RC=0
	golden "$1"
}

# no record under --root: the up netdevs, said to be unchecked; no umad node: HCOLL off
envfile rdma-env-noaddr.env
expect_grep "$E" '^NCCL_SOCKET_IFNAME==ib0,ib1,ib2,ib3,bond0$'
expect_grep "$E" '^# NCCL_SOCKET_IFNAME: IP addresses not read \(under --root, no /run/hostprep/snapshot/addresses\.txt\): the netdevs that are up$'
expect_grep "$E" '^# HCOLL off: no /dev/infiniband/umad\* node '
expect_grep "$E" '^OMPI_MCA_coll_hcoll_enable=0$'
expect_no_grep "$E" '^HCOLL_MAIN_IB=' "HCOLL off still names a port"

# ib1 only link-local IPv6, ib3 none, ib2 a global IPv6, ib0 and bond0 IPv4; lo aside
mkdir -p "$(dirname "$REC")"
printf '%s\n' "lo inet host" "lo inet6 host" "ib0 inet global" "ib0 inet6 link" \
	"ib1 inet6 link" "ib2 inet6 global" "bond0 inet global" >"$REC"
# /dev/infiniband with the verbs nodes only (a pod given uverbs, not umad): HCOLL off
mkdir -p "$R/dev/infiniband"
: >"$R/dev/infiniband/uverbs0"
: >"$R/dev/infiniband/rdma_cm"
hp check
expect_grep "$E" '^# HCOLL off: no /dev/infiniband/umad\* node '
expect_grep "$E" '^OMPI_MCA_coll_hcoll_enable=0$'
# the reason is in the report too (rdma.hcoll), a pass: rdma.env keeps jobs from hanging
expect_grep out '^PASS +rdma\.hcoll +host +HCOLL on a port +off: no /dev/infiniband/umad\* node '
: >"$R/dev/infiniband/umad0"
envfile rdma-env-addr.env
expect_grep "$E" '^NCCL_SOCKET_IFNAME==ib0,ib2,bond0$'
expect_grep "$E" '^# NCCL_SOCKET_IFNAME leaves out ib1,ib3: no IP address \(NCCL.s bootstrap binds one\)$'
expect_no_grep "$E" 'not read' "addresses read, yet said unread"
expect_grep "$E" '^HCOLL_MAIN_IB=mlx5_0:1$'
expect_no_grep "$E" 'hcoll_enable' "HCOLL on, yet turned off"
hp env
cmp -s "$T/out" "$E" || fail "hostprep env differs from the file: $(diff "$E" "$T/out")"

# an IPv4 link-scope address counts (169.254/16 is still an address NCCL binds)
echo "ib3 inet link" >>"$REC"
hp check
expect_grep "$E" '^NCCL_SOCKET_IFNAME==ib0,ib2,ib3,bond0$'
expect_grep "$E" '^# NCCL_SOCKET_IFNAME leaves out ib1: '

# a netdev that is down is never listed, with an address or not
echo down >"$R/sys/class/net/ib0/operstate"
hp check
expect_grep "$E" '^NCCL_SOCKET_IFNAME==ib2,ib3,bond0$'
echo up >"$R/sys/class/net/ib0/operstate"

# no netdev has an address: no NCCL_SOCKET_IFNAME line at all (NCCL picks its own)
printf 'lo inet host\n' >"$REC"
hp check
expect_no_grep "$E" '^NCCL_SOCKET_IFNAME=' "a list without addresses"
expect_grep "$E" '^# NCCL_SOCKET_IFNAME leaves out ib0,ib1,ib2,ib3,bond0: '

# the admin's choice: SocketInterface= wins over the derived list, in rule order
printf 'lo inet host\nib0 inet global\n' >"$REC"
mkdir -p "$R/etc/hostprep/hostprep.conf.d"
printf '[Port:rails]\nSocketInterface=eth0,eth1\n[Port:lag]\nSocketInterface=eth1,eth2\nHCOLL=no\n' \
	>"$R/etc/hostprep/hostprep.conf.d/50-env.conf"
envfile rdma-env-admin.env
expect_grep "$E" '^# NCCL_SOCKET_IFNAME from SocketInterface= of \[Port:rails\]$'
expect_grep "$E" '^NCCL_SOCKET_IFNAME==eth0,eth1,eth2$'
expect_no_grep "$E" 'leaves out' "the admin's list is not filtered"
expect_grep "$E" '^# HCOLL off: \[Port:lag\] HCOLL=no$'
expect_grep "$E" '^OMPI_MCA_coll_hcoll_enable=0$'
hp check
expect_grep out '^PASS +rdma\.hcoll +host +HCOLL on a port +off: \[Port:lag\] HCOLL=no$'
# a rule with Env=no has no say in rdma.env
printf '[Port:rails]\nSocketInterface=eth0,eth1\n[Port:lag]\nSocketInterface=eth1,eth2\nHCOLL=no\nEnv=no\n' \
	>"$R/etc/hostprep/hostprep.conf.d/50-env.conf"
hp check
expect_grep "$E" '^NCCL_SOCKET_IFNAME==eth0,eth1$'
expect_grep "$E" '^HCOLL_MAIN_IB=mlx5_0:1$'
expect_grep out '^PASS +rdma\.hcoll +host +HCOLL on a port +on: HCOLL_MAIN_IB=mlx5_0:1$'

# SocketInterface= is validated with the rest: file:line, exit 2, nothing written
for bad in 'eth0,,eth1' 'eth0 eth1' ',eth0' 'eth0,' 'a234567890123456' 'eth$0'; do
	printf '[Port:rails]\nSocketInterface=%s\n' "$bad" >"$R/etc/hostprep/hostprep.conf.d/50-env.conf"
	rm -f "$E"
	hp check
	expect_rc 2
	expect_grep err "50-env\.conf:2: SocketInterface=: invalid interface name" "SocketInterface=$bad"
	[ ! -e "$E" ] || fail "SocketInterface=$bad: rdma.env written"
done
printf '[Port:rails]\nSocketInterface=a23456789012345\nHCOLL=maybe\n' >"$R/etc/hostprep/hostprep.conf.d/50-env.conf"
hp check
expect_rc 2
expect_grep err '50-env\.conf:3: ' "HCOLL=maybe"
printf '[Port:rails]\nSocketInterface=a23456789012345\n' >"$R/etc/hostprep/hostprep.conf.d/50-env.conf"
hp check
expect_rc 1
expect_grep "$E" '^NCCL_SOCKET_IFNAME==a23456789012345$'

# A reload must never cut the node off (issue 18): virtio_net drives eth0; with
# Reload=unused and a wrong napi_tx it is unused, but unloading it would take eth0 down.
# Refused (naming the interface and why) when eth0 or something stacked on it (a bond it
# is a slave of) carries the default route (IPv4 or IPv6), or when an established ssh
# session's peer is routed through it; allowed otherwise. apply --dry-run says "refused
# now" for these and for the in-use refusal (issue 17.17). Nothing is unloaded under --root.
RT=proc/net/route
HDR='Iface	Destination	Gateway 	Flags	RefCnt	Use	Metric	Mask		MTU	Window	IRTT'

newroot virtio-nic
useconf kmod-virtio-nic
hp -v apply
expect_rc 1
expect_grep out '^FAIL +module\.reload +virtio_net .*refused: unloading virtio_net takes down eth0: eth0 carries the default route; nothing unloaded$'
expect_grep out 'reload virtio_net from a console that does not depend on that link'
expect_no_grep out 'would run: rmmod'
expect_grep out '^FAIL +module\.param +virtio_net\.napi_tx +Y +N$'
expect_grep out 'hostprep will not reload it \(unloading virtio_net takes down eth0: eth0 carries the default route\)'
hp -v apply --dry-run
expect_rc 0
expect_grep out '^  reload virtio_net when unused \(Reload=unused\): rmmod virtio_net; insmod /lib/modules/6\.1\.0-27-amd64/kernel/drivers/net/virtio_net\.ko napi_tx=Y — refused now: unloading virtio_net takes down eth0: eth0 carries the default route$'
hp -v apply --dry-run --json
expect_grep out '"refused": *"unloading virtio_net takes down eth0: eth0 carries the default route"'

# the default route on eth1, no session through eth0: the reload goes ahead (dry here)
printf '%s\neth1\t00000000\t0100090A\t0003\t0\t0\t100\t00000000\t0\t0\t0\neth0\t0000000A\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0\neth1\t0000090A\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0\n' "$HDR" >"$R/$RT"
hp -v apply
expect_rc 1
expect_grep out '^SKIP +module\.reload +virtio_net .*unused, but not reloaded under --root .*would run: rmmod virtio_net; insmod'
hp -v apply --dry-run
expect_no_grep out 'refused now'

# an ssh session from 10.0.0.7 (routed via eth0's 10.0.0.0/24) keeps it; a session from
# elsewhere (default route eth1) or to another port does not
printf '  sl  local_address rem_address   st\n   0: 0500000A:0016 0700000A:D431 01 00000000:00000000\n' >"$R/proc/net/tcp"
hp -v apply
expect_rc 1
expect_grep out 'refused: unloading virtio_net takes down eth0: eth0 carries the ssh session from 10\.0\.0\.7; nothing unloaded$'
printf '  sl  local_address rem_address   st\n   0: 0500000A:0016 0800A8C0:D431 01 00000000:00000000\n   1: 0500000A:01BB 0700000A:D431 01 00000000:00000000\n   2: 0500000A:0016 0700000A:D432 06 00000000:00000000\n' >"$R/proc/net/tcp"
hp -v apply
expect_grep out '^SKIP +module\.reload +virtio_net '
# IPv4-mapped and native IPv6 sessions (tcp6 prints each 32-bit word in host order)
printf '  sl  local_address                         remote_address                        st\n   0: 0000000000000000FFFF00000500000A:0016 0000000000000000FFFF00000700000A:D431 01 00000000:00000000\n' >"$R/proc/net/tcp6"
hp -v apply
expect_grep out 'eth0 carries the ssh session from 10\.0\.0\.7; nothing unloaded$'
printf '  sl  local_address                         remote_address                        st\n   0: 000080FE000000000000000001000000:0016 000080FE000000000000000009000000:D431 01 00000000:00000000\n' >"$R/proc/net/tcp6"
hp -v apply
expect_grep out 'eth0 carries the ssh session from fe80::9; nothing unloaded$'
: >"$R/proc/net/tcp6"

# an IPv6 default route through eth0
printf '00000000000000000000000000000000 00 00000000000000000000000000000000 00 fe800000000000000000000000000001 00000400 00000002 00000000 00000003     eth0\n' >>"$R/proc/net/ipv6_route"
hp -v apply
expect_grep out 'refused: unloading virtio_net takes down eth0: eth0 carries the default route; nothing unloaded$'

# eth0 a slave of bond0, which carries the default route
newroot virtio-nic
useconf kmod-virtio-nic
mkdir -p "$R/sys/devices/virtual/net/bond0"
ln -s ../../devices/virtual/net/bond0 "$R/sys/class/net/bond0"
ln -s ../../../../virtual/net/bond0 "$R/sys/devices/pci0000:00/virtio0/net/eth0/upper_bond0"
sed -i 's/^eth0\t00000000/bond0\t00000000/' "$R/$RT"
hp -v apply
expect_rc 1
expect_grep out 'refused: unloading virtio_net takes down eth0 and what is stacked on it: bond0 \(eth0 is stacked below it\) carries the default route; nothing unloaded$'

# an unreadable route table is not a pass
newroot virtio-nic
useconf kmod-virtio-nic
rm "$R/$RT"
hp -v apply
expect_grep out 'refused: unloading virtio_net takes down eth0: the route table cannot be read \(No such file or directory\); nothing unloaded$'

# nor is an interface list that cannot be read (class/net not a directory): an unload
# that may take down an interface nobody can name is refused; a root with no network
# class at all has nothing to take down
newroot virtio-nic
useconf kmod-virtio-nic
mv "$R/sys/class/net" "$R/sys/class/net.d"
: >"$R/sys/class/net"
hp -v apply
expect_rc 1
expect_grep out 'refused: unloading virtio_net may take down an interface: class/net cannot be listed \(Not a directory\); nothing unloaded$'
rm "$R/sys/class/net"
hp -v apply
expect_grep out '^SKIP +module\.reload +virtio_net .*unused, but not reloaded under --root'

# 17.17: the in-use refusal is announced by the dry run too
newroot erdma-inuse
useconf kmod-erdma
hp -v apply --dry-run
expect_rc 0
expect_grep out '^  reload erdma when unused \(Reload=unused\): rmmod erdma; insmod .* compat_mode=Y — refused now: in use by refcnt 1, pid 4242 \(ib_send_bw\) holds /dev/infiniband/uverbs0$'

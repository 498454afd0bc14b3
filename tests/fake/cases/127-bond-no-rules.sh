# Without a [Bond:*] section the module adds no result and reads no bonding file, even on
# a host full of bonds (strace: no open under bonding/, bonding_slave/ or proc/net/bonding).
newroot bond-lacp-split
hp check
expect_no_grep out 'bond'
if command -v strace >/dev/null; then
	strace -f -e trace=open,openat,openat2,stat,newfstatat,readlink -o "$T/trace" "$BIN" --root "$R" check >/dev/null 2>&1
	grep -E 'bonding|infiniband' "$T/trace" && fail "read bonding/RDMA files without a rule"
fi
# With a rule, only the named bond's files are read (bond1 is another bond, not named).
useconf bond-lacp
cp -a "$R/sys/devices/virtual/net/bond0" "$R/sys/devices/virtual/net/bond1"
ln -s ../../devices/virtual/net/bond1 "$R/sys/class/net/bond1"
if command -v strace >/dev/null; then
	strace -f -e trace=open,openat,openat2 -o "$T/trace" "$BIN" --root "$R" check >/dev/null 2>&1
	grep -q 'bond0/bonding/mode' "$T/trace" || fail "bond0 not read"
	grep -E 'bond1' "$T/trace" && fail "read bond1, which no rule names"
fi
true

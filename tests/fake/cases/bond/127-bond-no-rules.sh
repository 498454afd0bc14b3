# Without a [Bond:*] section the module adds no result and reads no bonding file, even on
# a host full of bonds (strace: no open under bonding/, bonding_slave/ or proc/net/bonding).
need_tool strace
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
newroot bond-lacp-split
hp check
expect_no_grep out 'bond'
strace -f -e trace=open,openat,openat2,stat,newfstatat,readlink -o "$T/trace" "$BIN" --root "$R" check >/dev/null 2>&1
expect_exited $? "check under strace, no rule"
grep -E 'bonding|infiniband' "$T/trace" && fail "read bonding/RDMA files without a rule"
# With a rule, only the named bond's files are read (bond1 is another bond, not named).
useconf bond-lacp
cp -a "$R/sys/devices/virtual/net/bond0" "$R/sys/devices/virtual/net/bond1"
ln -s ../../devices/virtual/net/bond1 "$R/sys/class/net/bond1"
strace -f -e trace=open,openat,openat2 -o "$T/trace" "$BIN" --root "$R" check >/dev/null 2>&1
expect_exited $? "check under strace, bond0 rule"
grep -q 'bond0/bonding/mode' "$T/trace" || fail "bond0 not read"
grep -E 'bond1' "$T/trace" && fail "read bond1, which no rule names"
true

# An SR-IOV virtual function's Vendor and Device ID registers read 0xffff (SR-IOV 1.1
# 3.4.1.1): the kernel takes its ids from the PF and shows them in sysfs, the rest of its
# header answers. Such a function is alive (ids from sysfs), not "not responding"; a
# function whose whole header reads all-ones still is, physfn link or not. Oracles: the
# config bytes (od) and the sysfs id files, read here.
newroot ib-gpu
D=$R/sys/bus/pci/devices
pf=$(readlink -f "$D/0000:1a:00.0")
vf=$(dirname "$pf")/0000:1a:00.2
cp -a "$pf" "$vf"
rm -rf "$vf/infiniband" "$vf/infiniband_verbs" "$vf/net"
printf '\377\377\377\377' | dd of="$vf/config" bs=1 conv=notrunc status=none
echo 0x101e >"$vf/device" # ConnectX-7 VF
ln -s ../0000:1a:00.0 "$vf/physfn"
ln -s ../0000:1a:00.2 "$pf/virtfn0"
ln -s "$(readlink "$D/0000:1a:00.0" | sed 's/1a:00\.0$/1a:00.2/')" "$D/0000:1a:00.2"
# the fixture: IDs all-ones in config, the class and capability pointer not; sysfs has ids
bytes() { od -An -tx1 -j "$2" -N "$3" "$1" | tr -d ' \n'; } # FILE OFFSET COUNT: hex
[ "$(bytes "$vf/config" 0 4)" = ffffffff ] || fail "fixture: VF config ids $(bytes "$vf/config" 0 4)"
[ "$(bytes "$vf/config" 9 3)" = 000702 ] || fail "fixture: VF class $(bytes "$vf/config" 9 3)"
[ "$(cat "$vf/vendor") $(cat "$vf/device")" = "0x15b3 0x101e" ] || fail "fixture: VF sysfs ids"

conf() { printf '[ACS:vf]\nSelect=%s\n' "$1" >"$R/etc/hostprep/hostprep.conf"; }
# By address: the VF is a function like its PF, not a port: the rule selects none.
conf 0000:1a:00.2
hp check
expect_rc 1
expect_no_grep out 'not responding'
expect_grep out '^FAIL +acs +rule vf +selects ports +selects no port on this host: 1 function, none a port'
# By the kernel's ids (the registers say ffff): the same function.
conf 15b3:101e
hp check
expect_grep out 'selects no port on this host: 1 function, none a port'
expect_no_grep out 'not responding'
# The topology files no VF as an endpoint (its PF stands for it), and asks no physfn link
# of a function whose header gave a vendor (no VF's does): the scan's look at the VF's is
# the one lookup. Oracle: strace's lookups of physfn.
need_tool strace
hp --json topology
[ "$(jqo -c '[.devices[] | select(.address == "0000:1a:00.2")] | length')" = 0 ] ||
	fail "the VF is a topology endpoint"
[ "$(jqo -c '[.devices[] | select(.address == "0000:1a:00.0")] | length')" = 1 ] ||
	fail "its PF is not a topology endpoint"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -o "$T/strace" \
	"$BIN" --root "$R" --no-color topology >"$T/out" 2>"$T/err" || fail "topology exited $?"
[ "$(grep -c 'physfn' "$T/strace")" = 1 ] || fail "physfn looked up: $(grep physfn "$T/strace")"
# No physfn link: nothing says it is a VF, and its ids read all-ones: not responding.
rm "$vf/physfn"
conf 0000:1a:00.2
hp check
expect_grep out '^FAIL +acs +0000:1a:00\.2 .*device not responding: config space reads 0xffff'
# A physfn link but the whole header all-ones (a VF that stopped answering): not responding.
ln -s ../0000:1a:00.0 "$vf/physfn"
head -c "$(stat -c %s "$vf/config")" /dev/zero | tr '\0' '\377' >"$vf/config.new"
mv "$vf/config.new" "$vf/config"
hp check
expect_grep out '^FAIL +acs +0000:1a:00\.2 .*device not responding: config space reads 0xffff'
true

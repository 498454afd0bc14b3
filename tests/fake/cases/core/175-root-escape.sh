# issue 17 item 7: nothing below --root leads out of it. A tree whose links are absolute
# (or climb above the root) must never make hostprep read or write outside DIR: such a
# link resolves inside DIR, as under chroot(2) (issue 25), so a device whose config file
# is a link out of the root has none there and is refused (never read, written or
# recorded), the rest of the host is still checked; hostprep's own directories that
# are links out of the root are refused, nothing is made there. Every run under
# timeout: a hang is a failure, not a stuck suite.
HP_ENV=(timeout -k 2 10)
OUT=$T/outside
port=0000:15:01.0 # a port gpu-p2p writes (ACS at 0x220), above the GPUs

# outside_same NAME: the file outside the root is byte for byte what it was
outside_same() {
	cmp -s "$OUT/$1" "$T/outside.orig/$1" || fail "$2: $OUT/$1 outside the root was written"
}

# 1. the port's config is an absolute symlink to a file outside the root
newroot dgx8
useconf gpu-p2p
rm -rf "$OUT" "$T/outside.orig"
mkdir -p "$OUT"
cfg=$R/$(cfgpath $port)
cp "$cfg" "$OUT/config"
ln -sfn "$OUT/config" "$cfg"
cp -a "$OUT" "$T/outside.orig"
hp apply
[ "$RC" = 124 ] && fail "apply hung"
expect_grep err "PCI device $port: cannot open its config file \(No such file or directory; bus/pci/devices/$port/config -> $OUT/config resolves inside --root\), refusing to read or write it" "apply: no warning naming the link that leaves the root"
outside_same config "apply"
rec=$R/run/hostprep/acs-originals
[ -f "$rec" ] || fail "apply wrote no record for the ports inside the root"
expect_no_grep "$rec" "^acs $port |$OUT" "the record names the refused port or the outside file"
# the rest of the host was written: another port above a GPU
[ "$(peek16 0000:37:01.0 0x226)" = 0011 ] || fail "apply did not write the ports inside the root"
hp --json check
expect_rc 1
[ "$(jqo "[.results[] | select(.object == \"$port\")][0].verdict")" = fail ] ||
	fail "check: the refused port is not a FAIL"
outside_same config "check"
hp revert
[ "$RC" = 124 ] && fail "revert hung"
outside_same config "revert"
[ "$(peek16 0000:37:01.0 0x226)" = 001d ] || fail "revert did not restore the ports inside the root"

# 2. the bus/pci/devices entry itself is an absolute link to a copy of the device outside
newroot dgx8
useconf gpu-p2p
rm -rf "$OUT" "$T/outside.orig"
mkdir -p "$OUT"
real=$(readlink -f "$R/sys/bus/pci/devices/$port")
cp -a "$real" "$OUT/dev"
ln -sfn "$OUT/dev" "$R/sys/bus/pci/devices/$port"
cp -a "$OUT" "$T/outside.orig"
hp apply
[ "$RC" = 124 ] && fail "apply hung (device link)"
expect_grep err "PCI device $port: cannot open its config file \(No such file or directory; bus/pci/devices/$port -> $OUT/dev resolves inside --root\)" "apply: no warning naming the device link"
outside_same dev/config "apply (device link)"
expect_no_grep "$R/run/hostprep/acs-originals" "^acs $port |$OUT" "the record names the port behind the outside link"
hp revert
outside_same dev/config "revert (device link)"

# 3. a link into this machine's /sys: refused, never read (check only: the unfixed
# binary would read the host's config space through it)
if [ -d /sys/bus/pci/devices ] && host=$(ls /sys/bus/pci/devices | head -1) && [ -n "$host" ]; then
	newroot dgx8
	useconf gpu-p2p
	ln -sfn "/sys/bus/pci/devices/$host" "$R/sys/bus/pci/devices/$host"
	hp check
	[ "$RC" = 124 ] && fail "check hung (/sys link)"
	# inside the root that link names itself: a loop, not this machine's device
	expect_grep err "PCI device $host: cannot open its config file \(Too many levels of symbolic links; bus/pci/devices/$host -> /sys/bus/pci/devices/$host resolves inside --root\)" "check: a link into the host's /sys is not refused"
else
	note "no /sys/bus/pci on this machine: the /sys link part is skipped"
fi

# 4. hostprep's own directories that are links out of the root: nothing is made there
newroot dgx8
useconf gpu-p2p
rm -rf "$OUT"
mkdir -p "$OUT/run"
rm -rf "$R/run/hostprep"
ln -s "$OUT/run" "$R/run/hostprep"
hp apply
[ "$RC" = 124 ] && fail "apply hung (run/hostprep link)"
[ "$RC" = 0 ] && fail "apply succeeded with run/hostprep leading out of the root"
[ -z "$(ls -A "$OUT/run")" ] || fail "apply wrote into $OUT/run through run/hostprep: $(ls -A "$OUT/run" | tr '\n' ' ')"
# inside the root run/hostprep is a dangling link: nothing is made where it points
expect_grep err 'Failed to create .*/run/hostprep: No such file or directory' "apply: the refusal is not reported"
expect_tree_same
hp check
[ -z "$(ls -A "$OUT/run")" ] || fail "check wrote into $OUT/run through run/hostprep"
# the persistent record's directory (var/lib/hostprep) is a link out
newroot dgx8
useconf gpu-p2p
rm -rf "$OUT"
mkdir -p "$OUT/varlib"
mkdir -p "$R/var/lib"
rm -rf "$R/var/lib/hostprep"
ln -s "$OUT/varlib" "$R/var/lib/hostprep"
hp apply
[ "$RC" = 124 ] && fail "apply hung (var/lib/hostprep link)"
[ -z "$(ls -A "$OUT/varlib")" ] || fail "apply wrote into $OUT/varlib: $(ls -A "$OUT/varlib" | tr '\n' ' ')"
hp revert
[ -z "$(ls -A "$OUT/varlib")" ] || fail "revert wrote into $OUT/varlib"
# a climbing relative link is as bad as an absolute one
newroot dgx8
useconf gpu-p2p
rm -rf "$OUT"
mkdir -p "$OUT/run"
rm -rf "$R/run/hostprep"
ln -s "../../outside/run" "$R/run/hostprep"
hp check
[ -z "$(ls -A "$OUT/run")" ] || fail "check wrote through a relative link above the root"

# 5. the same refusals by the fallback, where openat2(2) is missing (ENOSYS: Linux < 5.6,
# or a seccomp filter): the shim makes every openat2 call fail
if cc -shared -fPIC -O2 -o "$T/noopenat2.so" "$HERE/noopenat2.c" -ldl 2>"$T/noopenat2.log"; then
	HP_ENV=("LD_PRELOAD=$T/noopenat2.so" timeout -k 2 10)
	newroot dgx8
	useconf gpu-p2p
	rm -rf "$OUT" "$T/outside.orig"
	mkdir -p "$OUT/run"
	cfg=$R/$(cfgpath $port)
	cp "$cfg" "$OUT/config"
	ln -sfn "$OUT/config" "$cfg"
	cp -a "$OUT" "$T/outside.orig"
	hp apply
	[ "$RC" = 124 ] && fail "apply hung (fallback)"
	expect_grep err "PCI device $port: cannot open its config file \(No such file or directory; bus/pci/devices/$port/config -> $OUT/config resolves inside --root\)" "fallback: the link out of the root is not refused"
	outside_same config "apply (fallback)"
	[ "$(peek16 0000:37:01.0 0x226)" = 0011 ] || fail "fallback: apply did not write the ports inside the root"
	expect_no_grep "$R/run/hostprep/acs-originals" "^acs $port |$OUT" "fallback: the record names the refused port"
	hp revert
	outside_same config "revert (fallback)"
	[ "$(peek16 0000:37:01.0 0x226)" = 001d ] || fail "fallback: revert did not restore the ports inside the root"
	newroot dgx8
	useconf gpu-p2p
	rm -rf "$R/run/hostprep"
	ln -s "$OUT/run" "$R/run/hostprep"
	hp apply
	[ "$RC" = 0 ] && fail "fallback: apply succeeded with run/hostprep leading out of the root"
	[ -z "$(ls -A "$OUT/run")" ] || fail "fallback: apply wrote into $OUT/run"
	HP_ENV=(timeout -k 2 10)
else
	fail "cannot build the openat2 shim: $(cat "$T/noopenat2.log")"
fi

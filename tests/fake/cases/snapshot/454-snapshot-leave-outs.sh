# What a snapshot leaves out besides secrets, each with its reason in the manifest (issue
# 25, the unpinned edges; golden/snapshot-left-out.txt). Never read: a PCI function's
# resourceN and resourceN_wc (a read maps BAR memory or does port I/O), rom (enables the
# expansion ROM), vpd (can stall), the write-only triggers (remove, rescan, reset, a file
# without read permission); never opened: a device node outside /dev (in a PCI
# function's directory, in modprobe.d). Each class is counted once per file, the nodes
# named one by one. The config space is read (the check reads it), the text resource
# table too. mknod needs root.
need_root "mknod of device nodes outside /dev"
. "$HERE/lib-snapshot.sh"
newroot dgx8
useconf gpu-p2p
gpu=$(readlink -f "$R/sys/bus/pci/devices/0000:18:00.0")
for f in resource0 resource0_wc resource2 resource2_wc rom vpd reset; do
	echo "MUST-NOT-READ $f" >"$gpu/$f"
done
echo MUST-NOT-READ >"$gpu/trigger"
chmod 0200 "$gpu/trigger" "$gpu/reset"
mknod "$gpu/node" c 1 3
mkdir -p "$R/etc/modprobe.d"
mknod "$R/etc/modprobe.d/node.conf" c 1 5

hp --json check
cp "$T/out" "$T/host.json"
hp snapshot -o "$T/s.tar.zst"
expect_rc 0
snap_extract "$T/s.tar.zst" "$T/x"
if grep -rqa MUST-NOT-READ "$T/x"; then
	fail "read what must never be read: $(grep -rla MUST-NOT-READ "$T/x" | sed "s|$T/x/||" | tr '\n' ' ')"
fi
rel=${gpu#"$R/"}
for f in config resource; do
	[ -f "$T/x/$rel/$f" ] || fail "$f is not in the tar: the check reads it"
done
for f in node; do
	[ -e "$T/x/$rel/$f" ] && fail "$rel/$f is in the tar"
done
man=$T/x/hostprep-snapshot.txt
grep -E '^left out |^skipped .*: a device node' "$man" | sed "s|$rel|@GPU@|" >"$T/out"
RC=0
golden snapshot-left-out.txt

# left out, and the replay still gives the live report
"$BIN" --root "$T/x" --no-color --json check </dev/null >"$T/replay.json" 2>/dev/null
diff <(snap_norm "$T/host.json" "$R") <(snap_norm "$T/replay.json" "$T/x") >"$T/rt.diff" ||
	fail "the replay's report differs: $(head -20 "$T/rt.diff")"

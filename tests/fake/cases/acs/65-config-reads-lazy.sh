# Config-space reads of `check` (issue 11): the 64-byte header of every function, the
# capability chains only of the functions a rule can select (here: every port above a
# GPU, for upstream:10de:*). On real hardware each config dword is a bus transaction.
need_tool strace
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
newroot dgx8
useconf gpu-p2p
strace -f -y -e trace=pread64 -o "$T/check.strace" "$BIN" --root "$R" --no-color check \
	</dev/null >"$T/out" 2>"$T/err"
RC=$?
echo "\$ strace -e pread64 hostprep check -> exit $RC" >>"$T/transcript"
[ "$RC" -le 1 ] || fail "check exited $RC"
python3 - "$R" "$T/check.strace" >"$T/bad" <<'PY'
import os, re, sys
root, log = sys.argv[1], sys.argv[2]
devs = os.path.join(root, "sys/bus/pci/devices")
parent, vendor = {}, {}
for bdf in os.listdir(devs):
    comps = os.readlink(os.path.join(devs, bdf)).split("/")
    parent[bdf] = comps[-2] if re.match(r"^[0-9a-f]{4}:", comps[-2]) else None
    with open(os.path.join(devs, bdf, "config"), "rb") as f:
        vendor[bdf] = int.from_bytes(f.read(2), "little")
want = set()
for bdf, v in vendor.items():
    if v == 0x10de:
        p = parent[bdf]
        while p:
            want.add(p)
            p = parent[p]
reads = {bdf: [] for bdf in parent}
pat = re.compile(r'pread64\(\d+<([^>]*)/config>, .*, (\d+), (\d+)\) = (-?\d+)')
for line in open(log):
    m = pat.search(line)
    if m:
        bdf = os.path.basename(m.group(1))
        reads.setdefault(bdf, []).append((int(m.group(3)), int(m.group(2))))
if not want:
    print("fixture has no GPU behind a port: the case tests nothing")
for bdf, rs in sorted(reads.items()):
    if (0, 64) not in rs:
        print(f"{bdf}: header not read as one 64-byte read at 0: {rs}")
    extra = [r for r in rs if r != (0, 64)]
    if bdf in want and not extra:
        print(f"{bdf}: a port above a GPU, but its capability chains were not read")
    if bdf not in want and extra:
        print(f"{bdf}: no rule can select it, yet read beyond the header: {extra}")
print(f"# {len(reads)} functions, {len(want)} candidates, "
      f"{sum(n for rs in reads.values() for _, n in rs)} config bytes", file=sys.stderr)
PY
if [ -s "$T/bad" ]; then
	fail "config-space reads are not header + candidates' chains:"
	sed 's/^/    /' "$T/bad" | head -20
fi

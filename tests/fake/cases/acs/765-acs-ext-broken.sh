# A selected port whose extended capability list cannot be read to its end (the config
# file ends inside the list, a capability header or the ACS registers read all-ones, the
# list loops) has unknown ACS: `acs` UNKNOWN naming why, its GPU pairs unknown in the
# topology, nothing written to it by apply. It was "no ACS": the port fell out of the rule
# and its P2P path was "direct" while it still redirected (an audit found it). A zero
# header at 0x100 is the list's legitimate end: no ACS capability, as before.
port=0000:17:00.0

# caps BDF: the offsets of the extended capabilities of BDF, in list order
caps() {
	python3 - "$R/$(cfgpath "$1")" <<'EOF'
import sys
d = open(sys.argv[1], 'rb').read()
pos, seen = 0x100, 0
while 0x100 <= pos and pos + 4 <= len(d) and seen < 64:
    h = int.from_bytes(d[pos:pos + 4], 'little')
    if h in (0, 0xffffffff):
        break
    print('0x%x 0x%04x' % (pos, h & 0xffff))
    pos, seen = (h >> 20) & 0xffc, seen + 1
EOF
}

# pokes BDF OFFSET HEXBYTES: overwrite bytes of the config file, in $R and $REF
pokes() {
	local f
	f=$(cfgpath "$1")
	python3 -c "import sys; f = open(sys.argv[1], 'r+b'); f.seek(int(sys.argv[2], 0)); f.write(bytes.fromhex(sys.argv[3]))" \
		"$R/$f" "$2" "$3"
	cp "$R/$f" "$REF/$f"
}

# unknown WHAT: the last --json run has the port unknown, saying why, and no other verdict
unknown() {
	local n v
	n=$(jqo --arg a "$port" '[.results[] | select(.check=="acs" and .object==$a)] | length')
	[ "$n" = 1 ] || fail "$1: $port has $n acs results, want 1"
	v=$(jqo --arg a "$port" '.results[] | select(.check=="acs" and .object==$a) | .verdict')
	[ "$v" = unknown ] || fail "$1: $port is '$v', want unknown"
	jqo --arg a "$port" '.results[] | select(.check=="acs" and .object==$a) | .actual' >"$T/actual"
	expect_grep "$T/actual" '^cannot tell: the extended capability list cannot be read to its end' \
		"$1: the actual does not say why"
	expect_no_grep "$T/actual" '[Nn]o ACS' "$1: reported as no ACS"
}

# broken WHAT: check, topology and apply on the damaged tree
broken() {
	hp --json check
	expect_rc 1
	unknown "$1: check"
	hp --json topology
	[ "$(jqo --arg a "$port" '[.pairs[] | select(any(.ports[]; .address==$a)) | select(.p2p=="direct")] | length')" = 0 ] ||
		fail "$1: a GPU pair through $port is direct in the topology"
	[ "$(jqo --arg a "$port" '[.pairs[].ports[] | select(.address==$a) | .acs] | unique | join(",")')" = unreadable ] ||
		fail "$1: $port is not 'unreadable' in the topology"
	hp --json apply
	expect_rc 1
	unknown "$1: apply"
	[ "$(treediff "$REF" "$R" | grep -c "${port#0000:}/config")" = 0 ] || fail "$1: apply wrote to $port"
	expect_no_grep "$R/run/hostprep/acs-originals" "^acs $port " "$1: the record names $port"
}

newroot dgx8
useconf gpu-p2p
caps "$port" >"$T/caps"
acs=$(awk '$2 == "0x000d" { print $1 }' "$T/caps")
first=$(awk 'NR == 1 { print $1 }' "$T/caps")
before=$(awk -v a="$acs" '$1 == a { exit } { p = $1 } END { print p }' "$T/caps")
[ -n "$acs" ] && [ "$(wc -l <"$T/caps")" -ge 2 ] && [ "$before" != "$acs" ] ||
	fail "fixture: $port has no ACS capability behind another one ($(tr '\n' ' ' <"$T/caps"))"
hp --json check
[ "$(jqo --arg a "$port" '.results[] | select(.check=="acs" and .object==$a) | .verdict')" = fail ] ||
	fail "intact: $port is not a FAIL (RR,CR on)"

# 1. the config file ends inside the list (before the ACS capability)
newroot dgx8
useconf gpu-p2p
f=$(cfgpath "$port")
truncate -s $((acs)) "$R/$f"
cp "$R/$f" "$REF/$f"
broken "short file"

# 2. the header before ACS points at a dword that reads all-ones; with the other port of
# the GPU0-GPU1 path as the rule wants, that pair is unknown (it was "direct")
newroot dgx8
useconf gpu-p2p
pokes "$port" "$acs" ffffffff
broken "all-ones header"
newroot dgx8
useconf gpu-p2p
pokes "$port" "$acs" ffffffff
other=$(caps 0000:17:01.0 | awk '$2 == "0x000d" { print $1 }')
poke16 0000:17:01.0 $((other + 6)) 0x0011
hp --json topology
[ "$(jqo '.pairs[] | select(.a=="GPU0" and .b=="GPU1") | .p2p')" = unknown ] ||
	fail "all-ones header: GPU0-GPU1 is not unknown with 0000:17:01.0 as the rule wants"

# 3. the list loops: the capability before ACS points at itself
newroot dgx8
useconf gpu-p2p
h=$(od -An -tx4 -j $((before)) -N4 "$R/$(cfgpath "$port")" | tr -d ' \n')
new=$(printf '%08x' $(((0x$h & 0xfffff) | (before << 20))))
pokes "$port" "$before" "${new:6:2}${new:4:2}${new:2:2}${new:0:2}"
broken "loop"

# 4. the ACS registers read all-ones
newroot dgx8
useconf gpu-p2p
pokes "$port" $((acs + 4)) ffffffff
broken "ACS registers all-ones"

# 5. the boundary: a zero header at 0x100 ends the list there: no ACS capability, known
newroot dgx8
useconf gpu-p2p
pokes "$port" "$first" 00000000
hp --json check
v=$(jqo --arg a "$port" '[.results[] | select(.check=="acs" and .object==$a) | .verdict] | join(",")')
[ "$v" != unknown ] || fail "zero header: $port is unknown, want the list's end (no ACS)"
hp --json topology
[ "$(jqo --arg a "$port" '[.pairs[].ports[] | select(.address==$a) | .acs] | unique | join(",")')" = none ] ||
	fail "zero header: $port is not 'none' in the topology"

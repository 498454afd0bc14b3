# [Links]: every hop from the GPUs/NICs up to the root port against min(port, device)
# capability. l40-amd: 41:00.0 trained x8 in a x16 slot (degraded), 81:00.0 is a x16 card
# in a x8 slot (NOT degraded), c1:00.0 idles at 2.5 GT/s (a GPU: warn at most), the
# ConnectX-6 Dx runs Gen3 in a Gen4 slot (degraded speed). Checked against lspci too.
newroot l40-amd
useconf links

# links_json: the pcie.link verdicts of a --json check, "OBJECT VERDICT" sorted, in $T/links
# jqe EXPR: true when EXPR holds over the last stdout (jq -e: false and null fail)
jqe() { jq -e "$@" "$T/out" >/dev/null; }

links_json() {
	hp --json check
	jq -r '.results[] | select(.check == "pcie.link") | "\(.object) \(.verdict)"' "$T/out" | sort >"$T/links"
}

links_json
expect_rc 0
cat >"$T/want" <<'EOT'
0000:01:00.0 pass
0000:02:00.0 warn
0000:41:00.0 warn
0000:81:00.0 pass
0000:c1:00.0 warn
EOT
diff -u "$T/want" "$T/links" >"$T/d" || fail "Degraded=warn verdicts differ: $(cat "$T/d")"
# one hop per port: the second function of the dual-port NIC shares 02:00.0's link
jqe '[.results[] | select(.object == "0000:02:00.1")] | length == 0' || fail "02:00.1 reported: the link of 00:01.2 counted twice"
jqe '.results[] | select(.object == "0000:41:00.0") | .actual | test("^16.0 GT/s x8, link can do 16.0 GT/s x16 \\(port 0000:40:01.1: 16.0 GT/s x16, device: 16.0 GT/s x16\\)$")' ||
	fail "41:00.0 text: $(jq -r '.results[] | select(.object == "0000:41:00.0") | .actual' "$T/out")"
jqe '.results[] | select(.object == "0000:81:00.0") | .actual | test("port 0000:80:01.1: 16.0 GT/s x8, device: 16.0 GT/s x16")' ||
	fail "81:00.0 does not name the x8 slot"
jqe '.results[] | select(.object == "0000:c1:00.0") | .remedy | test("idle")' || fail "c1:00.0: no word of idle power saving"
jqe '.results[] | select(.object == "0000:02:00.0") | .actual | test("^8.0 GT/s x16, link can do 16.0 GT/s x16")' || fail "02:00.0 text"

# Oracle: each hop's current speed/width as lspci decodes LnkSta from config space.
for dev in 01:00.0 41:00.0 81:00.0 c1:00.0 02:00.0; do
	sta=$(lspci -A linux-sysfs -O sysfs.path="$R/sys/bus/pci" -vv -s "$dev" 2>/dev/null | sed -n 's/^\s*LnkSta:\s*Speed \([0-9.]*\)GT\/s[^,]*, Width x\([0-9]*\).*/\1 \2/p')
	act=$(jq -r --arg o "0000:$dev" '.results[] | select(.object == $o) | .actual' "$T/out" |
		sed -n 's/^\([0-9.]*\) GT\/s x\([0-9]*\),.*/\1 \2/p' | sed 's/^\([0-9]*\)\.0 /\1 /')
	[ -n "$sta" ] && [ "$sta" = "$act" ] || fail "$dev: lspci LnkSta '$sta', hostprep '$act'"
done

# Degraded=fail: not ready; the idle GPU stays a warning.
useconf links-fail
links_json
expect_rc 1
cat >"$T/want" <<'EOT'
0000:01:00.0 pass
0000:02:00.0 fail
0000:41:00.0 fail
0000:81:00.0 pass
0000:c1:00.0 warn
EOT
diff -u "$T/want" "$T/links" >"$T/d" || fail "Degraded=fail verdicts differ: $(cat "$T/d")"

# Degraded=ignore: reported, judged as skipped.
printf '[Links]\nDegraded=ignore\n' >"$R/etc/hostprep/hostprep.conf"
links_json
expect_rc 0
[ "$(grep -c ' skip$' "$T/links")" = 3 ] || fail "Degraded=ignore: $(cat "$T/links")"

# A link whose state reads "Unknown"/0 is not called fine: warn (unknown with fail).
printf 'Unknown\n' >"$R/sys/devices/pci0000:00/0000:00:01.1/current_link_speed"
printf 'Unknown\n' >"$R/sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/current_link_speed"
printf '[Links]\n' >"$R/etc/hostprep/hostprep.conf"
links_json
grep -qx '0000:01:00.0 warn' "$T/links" || fail "unknown link state: $(cat "$T/links")"
# Degraded=ignore is about degraded hops: an unread one stays a warning, never a skip
printf '[Links]\nDegraded=ignore\n' >"$R/etc/hostprep/hostprep.conf"
links_json
grep -qx '0000:01:00.0 warn' "$T/links" || fail "unknown link state, Degraded=ignore: $(cat "$T/links")"

# dgx8: 8 GPUs + 4 NICs below 4 switches: 12 endpoint hops + the 4 root-port hops above the
# switches (the hop inside a switch, upstream to downstream port, is no link); the same with
# 64-byte config space (no root), where the port types come from the tree.
for fx in dgx8 dgx8-nonroot; do
	newroot $fx
	useconf links
	links_json
	expect_rc 0
	[ "$(wc -l <"$T/links")" = 16 ] || fail "$fx: $(wc -l <"$T/links") hops, want 16"
	[ "$(grep -c ' pass$' "$T/links")" = 16 ] || fail "$fx: not all pass: $(cat "$T/links")"
	grep -qx "0000:16:00.0 pass" "$T/links" || fail "$fx: no hop 15:01.0 -> 16:00.0 (switch upstream port)"
	grep -q "^0000:17:" "$T/links" && fail "$fx: a hop inside the switch: $(grep "^0000:17:" "$T/links")"
	cp "$T/links" "$T/links.$fx"
done
cmp -s "$T/links.dgx8" "$T/links.dgx8-nonroot" || fail "root and non-root see different hops"

# Select= narrows the endpoints: only the InfiniBand NICs (4 + their 4 root-port hops).
newroot dgx8
printf '[Links]\nSelect=class:0207\n' >"$R/etc/hostprep/hostprep.conf"
links_json
[ "$(wc -l <"$T/links")" = 8 ] || fail "Select=class:0207: $(cat "$T/links")"
# No [Links] section: nothing read, nothing reported.
rm "$R/etc/hostprep/hostprep.conf"
links_json
[ -s "$T/links" ] && fail "pcie.link results without [Links]"
true

# A kernel-parameter secret inside a single-quoted shell value
# (GRUB_CMDLINE_LINUX='quiet rd.iscsi.password=S') was cut together with the closing quote:
# the stored /etc/default/grub no longer parsed and the replay's acs.grub verdict changed
# (warn -> unknown, an audit found it). The quote is kept now: the file still parses and
# the replay gives the host's verdict.
. "$HERE/lib-snapshot.sh"
grub() { jq -r '[.results[] | select(.check=="acs.grub") | .verdict + "|" + .actual] | join(";")' "$1"; }
newroot dgx8
useconf gpu-p2p
mkdir -p "$R/etc/default/grub.d" "$R/boot/grub"
echo "GRUB_CMDLINE_LINUX='quiet rd.iscsi.password=SECRET'" >"$R/etc/default/grub"
hp acs cmdline --install
expect_rc 0
hp --json check
cp "$T/out" "$T/host.json"
hp snapshot -o "$T/s.tar.zst"
expect_rc 0
snap_extract "$T/s.tar.zst" "$T/x"
g=$T/x/etc/default/grub
grep -rqa SECRET "$T/x" && fail "the secret is in the tar"
grep -qxF "GRUB_CMDLINE_LINUX='quiet rd.iscsi.password=REDACTED'" "$g" ||
	fail "etc/default/grub is not kept with the secret cut: $(cat "$g")"
sh -n "$g" 2>"$T/sh.err" || fail "the stored etc/default/grub does not parse: $(cat "$T/sh.err")"
"$BIN" --root "$T/x" --no-color --json check </dev/null >"$T/replay.json" 2>"$T/replay.err"
host=$(grub "$T/host.json")
[ -n "$host" ] || fail "the host's check gave no acs.grub result"
[ "$(grub "$T/replay.json")" = "$host" ] || fail "replay acs.grub: $(grub "$T/replay.json"), host: $host"

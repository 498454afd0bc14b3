# /etc/modprobe.d reached through a directory symlink (config management:
# /etc/modprobe.d -> /srv/site/modprobe): its files are stored under the link's target name
# and were matched against the redaction rules by that name and by the link's alone, so no
# modprobe.d rule applied and "options foo password=S" was stored verbatim (an audit found
# it). The rules now also see the name a file was read by (etc/modprobe.d/site.conf).
. "$HERE/lib-snapshot.sh"
newroot dgx8
mkdir -p "$R/srv/site/modprobe/deep" "$R/srv/other"
rm -rf "$R/etc/modprobe.d"
echo 'options foo password=SECRET-DIRLINK bar=1' >"$R/srv/site/modprobe/site.conf"
# a link inside the linked directory: read as etc/modprobe.d/via.conf too
echo 'options baz passwd=SECRET-INNER' >"$R/srv/other/inner.conf"
ln -s /srv/other/inner.conf "$R/srv/site/modprobe/via.conf"
ln -s /srv/site/modprobe "$R/etc/modprobe.d"
hp snapshot -o "$T/s.tar.zst"
expect_rc 0
snap_extract "$T/s.tar.zst" "$T/x"
[ -f "$T/x/srv/site/modprobe/site.conf" ] || fail "the linked directory's file was not captured"
[ -f "$T/x/srv/other/inner.conf" ] || fail "the target of the link inside it was not captured"
grep -rqa SECRET "$T/x" && fail "a secret is in the tar: $(grep -rla SECRET "$T/x" | head -3)"
expect_grep "$T/x/srv/site/modprobe/site.conf" '^options foo password=REDACTED bar=1$' \
	"site.conf is not kept with the secret cut: $(cat "$T/x/srv/site/modprobe/site.conf")"
expect_grep "$T/x/hostprep-snapshot.txt" '^redacted srv/site/modprobe/site\.conf:1: the value of password=' \
	"the cut is not named"

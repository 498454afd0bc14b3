# A replay must not lie about what a link leads to (issue 25 §6). A modprobe.d file that is
# a symlink (Debian's alternatives: zz-site.conf -> alternatives/... -> the file) is read
# through it: the snapshot takes the link and every link and file on the way, so the live
# module.persist FAIL (the linked file overrides hostprep.conf) is the replay's FAIL. An
# absolute link is stored as it is and its target taken below the root (hostprep reads
# below a root chroot-like); a link that climbs above the root leads to the root's top,
# never out of it; a link to a secret is stored, its target never taken (named); the
# chain's length is bounded (named). Relative links carry the verdict here: under --root
# an absolute link is read below the root only once every reader resolves inside it.
. "$HERE/lib-snapshot.sh"
newroot erdma-compat
useconf kmod-erdma
hp apply
mkdir -p "$R/etc/alternatives" "$R/usr/share/erdma"
printf 'options erdma compat_mode=N\n' >"$R/usr/share/erdma/site.conf"
ln -s ../../usr/share/erdma/site.conf "$R/etc/alternatives/erdma-site.conf"
ln -s ../alternatives/erdma-site.conf "$R/etc/modprobe.d/zz-site.conf"
hp -v --json check
expect_rc 1
cp "$T/out" "$T/host.json"
jq -r '.results[] | select(.check=="module.persist") | .verdict + " " + .actual' "$T/host.json" |
	grep -q '^fail .*zz-site\.conf:1: options erdma compat_mode=N overrides' ||
	fail "live: module.persist does not fail on the linked file: $(jq -c '[.results[] | select(.check=="module.persist")]' "$T/host.json")"

# absolute (taken below the root), above the root (the root's top), a secret, a loop
ln -s /etc/alternatives/erdma-abs.conf "$R/etc/modprobe.d/abs.conf"
ln -s /usr/share/erdma/abs.conf "$R/etc/alternatives/erdma-abs.conf"
printf '# through two absolute links\n' >"$R/usr/share/erdma/abs.conf"
printf '# at the top of the root\n' >"$R/top.conf"
echo 'SECRET-OUTSIDE' >"$T/top.conf"
ln -s ../../../top.conf "$R/etc/modprobe.d/up.conf"
echo 'root:SECRET-SHADOW:19000::::::' >"$R/etc/shadow"
ln -s /etc/shadow "$R/etc/modprobe.d/shadow.conf"
ln -s loop-b.conf "$R/etc/modprobe.d/loop-a.conf"
ln -s loop-a.conf "$R/etc/modprobe.d/loop-b.conf"

hp snapshot -o "$T/s.tar.zst"
expect_rc 0
tar -tvf "$T/s.tar.zst" | awk '{ $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); print }' |
	grep -E '^(etc/(modprobe\.d|alternatives)/|usr/share/erdma/|top\.conf)' | LC_ALL=C sort >"$T/out"
RC=0
golden snapshot-links.txt
snap_extract "$T/s.tar.zst" "$T/x"
if grep -rqa SECRET "$T/x"; then
	fail "a secret is in the tar: $(grep -rla SECRET "$T/x" | head -3)"
fi
man=$T/x/hostprep-snapshot.txt
for l in 'skipped etc/shadow: never captured (the target of a symlink)' \
	'skipped etc/modprobe.d/loop-a.conf: too many levels of symlinks'; do
	grep -qxF "$l" "$man" || fail "manifest lacks '$l': $(grep -E '^skipped etc/' "$man")"
done

# the replay reads the same file through the same links: the same FAIL
rm -f "$R/etc/modprobe.d/"{abs,up,shadow,loop-a,loop-b}.conf
hp -v --json check
cp "$T/out" "$T/host.json"
hp snapshot -o "$T/s2.tar.zst"
expect_rc 0
snap_extract "$T/s2.tar.zst" "$T/x2"
"$BIN" --root "$T/x2" --no-color -v --json check </dev/null >"$T/replay.json" 2>"$T/replay.err"
[ "$?" = 1 ] || fail "the replay does not fail as the live check does"
diff <(snap_norm "$T/host.json" "$R") <(snap_norm "$T/replay.json" "$T/x2") >"$T/rt.diff" ||
	fail "the replay's report differs: $(head -20 "$T/rt.diff")"

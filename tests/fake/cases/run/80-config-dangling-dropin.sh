# issue 6 item 12: a dangling drop-in symlink is an error (exit 2) naming the file
# and the link target; only a link to the null device masks; a link to another
# character device (/dev/zero) is an error; a dangling main config too.
dangling_msg() { # WHAT FILE TARGET
	expect_rc 2
	expect_grep err "etc/hostprep/hostprep\.conf\.d/$2: dangling symlink to '$3'" "$1: stderr does not name the dangling link and its target"
	expect_tree_same
}
# 1. the site policy is a link to a file that is gone: apply must not go on without it
newroot dgx8
useconf gpu-p2p
ref_private
for d in "$R" "$REF"; do
	install -d -m 0755 "$d/etc/hostprep/hostprep.conf.d"
	ln -s /srv/policy/90-site.conf "$d/etc/hostprep/hostprep.conf.d/90-site.conf"
done
hp apply
dangling_msg "apply" 90-site.conf /srv/policy/90-site.conf
[ -e "$R/run/hostprep/acs-originals" ] && fail "apply wrote with a dangling drop-in"
hp check
dangling_msg "check" 90-site.conf /srv/policy/90-site.conf
hp config
dangling_msg "config" 90-site.conf /srv/policy/90-site.conf
# 2. a link to /dev/zero is no mask: error; the vendor drop-in it meant to hide is not
# applied either. Below --root the link resolves inside the root (chroot-like): with no
# dev/zero there it dangles; with the root's own dev/zero (mknod, as root) it is the
# character device
newroot dgx8
ref_private
for d in "$R" "$REF"; do
	install -D -m 0644 "$HERE/configs/gpu-p2p.conf" "$d/usr/lib/hostprep/hostprep.conf.d/50-vendor.conf"
	install -d -m 0755 "$d/etc/hostprep/hostprep.conf.d"
	ln -s /dev/zero "$d/etc/hostprep/hostprep.conf.d/50-vendor.conf"
done
hp apply
dangling_msg "/dev/zero link, no dev/zero in the root" 50-vendor.conf /dev/zero
if mkdir -p "$R/dev" "$REF/dev" && mknod "$R/dev/zero" c 1 5 2>/dev/null && mknod "$REF/dev/zero" c 1 5; then
	hp apply
	expect_rc 2
	expect_grep err 'hostprep\.conf\.d/50-vendor\.conf: not a regular file \(a character device other than the null device\)' "/dev/zero link: not named as an error"
	expect_tree_same
else
	note "mknod not allowed here: the root's own dev/zero part is left out"
fi
# 3. a link to /dev/null masks the vendor drop-in: nothing to do, exit 0
for d in "$R" "$REF"; do
	ln -sfn /dev/null "$d/etc/hostprep/hostprep.conf.d/50-vendor.conf"
done
hp apply
expect_rc 0
expect_tree_same
# 4. the main config itself is a dangling link: an error, not "no config"
newroot dgx8
ref_private
for d in "$R" "$REF"; do
	ln -s hostprep.conf.dpkg-new "$d/etc/hostprep/hostprep.conf"
done
hp check
expect_rc 2
expect_grep err "etc/hostprep/hostprep\.conf: dangling symlink to 'hostprep\.conf\.dpkg-new'" "dangling main config not reported"

# apply with Apply=yes, and revert, change the host: as a normal user they refuse
# up front (exit 2, "needs root") instead of failing halfway on a lock or a write;
# the read-only dry run still works.
newroot dgx8
pub=$(mktemp -d /tmp/hostprep-pub.XXXXXX)
chmod 755 "$pub"
cp "$HERE/configs/gpu-p2p.conf" "$pub/hostprep.conf"
chmod 644 "$pub/hostprep.conf"
HP_ENV=(setpriv --reuid=65534 --regid=65534 --clear-groups)
hp --config "$pub/hostprep.conf" apply
expect_rc 2
expect_grep err 'needs root' "a non-root apply does not say it needs root"
hp revert
expect_rc 2
expect_grep err 'needs root' "a non-root revert does not say it needs root"
HP_ENV=()
expect_tree_same
rm -rf "$pub"

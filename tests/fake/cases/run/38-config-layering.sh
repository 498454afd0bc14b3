# Config search and precedence (all under the root): /usr/lib/hostprep/hostprep.conf,
# then /etc/hostprep/hostprep.conf, then drop-ins by name (/etc over /run over /usr/lib).
# --config FILE replaces the search.
# 1. a drop-in turns Apply off again: nothing written
newroot dgx8
useconf gpu-p2p
dropin apply-no 90-audit.conf
hp apply
expect_tree_same
# 2. the vendor file under /usr/lib says Apply=yes with the rule, /etc says Apply=no
newroot dgx8
ref_private
for d in "$R" "$REF"; do
	install -D -m 0644 "$HERE/configs/gpu-p2p.conf" "$d/usr/lib/hostprep/hostprep.conf"
	install -m 0644 "$HERE/configs/apply-no.conf" "$d/etc/hostprep/hostprep.conf"
done
hp apply
expect_tree_same
hp config
# each origin comment is on its own line above its assignment: join the two
sed -n '/^# /{N;s/\n/ /;p}' "$T/out" >"$T/joined"
expect_grep joined '/etc/hostprep/hostprep\.conf:2 Apply=no' "config does not show Apply=no from /etc/hostprep/hostprep.conf:2"
# 3. same name in /etc masks /usr/lib's drop-in
for d in "$R" "$REF"; do
	rm -f "$d/etc/hostprep/hostprep.conf"
	install -D -m 0644 "$HERE/configs/apply-no.conf" "$d/usr/lib/hostprep/hostprep.conf.d/50-x.conf"
	install -D -m 0644 "$HERE/configs/iommu-off.conf" "$d/etc/hostprep/hostprep.conf.d/50-x.conf"
done
hp config
expect_grep out '^Apply=yes' "the /usr/lib drop-in masked by /etc's same-named file still applies"
sed -n '/^# /{N;s/\n/ /;p}' "$T/out" >"$T/joined"
expect_grep joined '/etc/hostprep/hostprep\.conf\.d/50-x\.conf:2 Expect=off' "the /etc drop-in is not used"
# 4. --config replaces the search: the /etc config with Apply=yes is not read
newroot dgx8
useconf gpu-p2p
install -m 0644 "$HERE/configs/audit.conf" "$T/audit.conf"
hp --config "$T/audit.conf" apply
expect_tree_same
hp --config "$T/audit.conf" config
expect_no_grep out 'Apply=yes' "--config did not replace the search"

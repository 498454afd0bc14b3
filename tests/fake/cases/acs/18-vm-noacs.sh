# QEMU pcie-root-port without an ACS capability: a rule naming it by address
# gives "skip" with a reason; upstream:10de:* selects nothing (no ACS port on the path).
newroot vm-noacs
useconf vm
hp --json check
expect_rc 0
[ "$(jqo '[.results[] | select(.check=="acs" and .object=="0000:00:02.2") | .verdict] | join(",")')" = skip ] ||
	fail "0000:00:02.2 verdict is not a single skip"
jqo '.results[] | select(.check=="acs" and .object=="0000:00:02.2") | .actual + " " + (.remedy // "")' >"$T/why"
expect_grep why '[Nn]o ACS|ACS capability|not ACS' "the skip does not say the port has no ACS capability"
other=$(jqo '[.results[] | select(.check=="acs" and .object!="0000:00:02.2" and (.object|startswith("rule ")|not)) | .object] | join(",")')
[ -z "$other" ] || fail "acs results for ports nothing should select: $other"
# ...and the rule that selects nothing says so, instead of staying silent (a skip: it
# says AllowNone=yes; without it an admin's rule fails, cases/421)
[ "$(jqo '[.results[] | select(.check=="acs" and .object=="rule gpu-paths") | .verdict + ":" + .actual] | join(",")')" = "skip:selects no port on this host (AllowNone=yes)" ] ||
	fail "rule gpu-paths selecting nothing is not reported as a skip"
[ "$(jqo '[.results[] | select(.check=="iommu.mode") | .verdict] | join(",")')" = pass ] ||
	fail "iommu.mode with Expect=off on a VM without IOMMU is not pass"
# apply writes nothing
sed -i 's/^\[IOMMU\]/[Host]\nApply=yes\n\n[IOMMU]/' "$R/etc/hostprep/hostprep.conf" "$REF/etc/hostprep/hostprep.conf"
hp apply
expect_tree_same

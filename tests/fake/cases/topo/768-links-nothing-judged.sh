# [Links] that cannot judge what it selected says so (an audit found both silent, READY):
# an admin's Select= that matches only functions behind no PCIe link (the host bridges'
# integrated endpoints) fails like one that matches nothing; a PCIe function (its PCI
# Express capability read) whose link attributes are missing on both ends of its hop is
# unknown, never skipped as conventional PCI. A conventional function's hop is still skipped.
newroot ib-gpu
printf '[Links]\nSelect=8086:09a2\nDegraded=fail\n' >"$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 1
expect_grep out '^FAIL +pcie\.link +host +the \[Links\] endpoints +[0-9]+ functions selected, none behind a PCIe link'
expect_grep out '^  → fix \[Links\] Select=: it selects no function behind a PCIe link$'

newroot ib-gpu
printf '[Links]\nSelect=0000:18:00.0\nDegraded=fail\n' >"$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 0
expect_grep out '^PASS +pcie\.link +0000:18:00\.0 '
g=$(readlink -f "$R/sys/bus/pci/devices/0000:18:00.0")
rm "$g"/*_link_* "$(dirname "$g")"/*_link_*
hp --json check
expect_rc 1
[ "$(jqo '.results[] | select(.check=="pcie.link" and .object=="0000:18:00.0") | .verdict')" = unknown ] ||
	fail "the GPU's unread link is not unknown"
[ "$(jqo '[.results[] | select(.check=="pcie.link" and .verdict=="pass")] | length')" -ge 1 ] ||
	fail "the readable hops above were not judged"

# the same function without a capability list is conventional PCI: its hop has no link
st=$(peek16 0000:18:00.0 0x06)
poke16 0000:18:00.0 0x06 $((0x$st & ~0x10))
hp --json check
[ "$(jqo '[.results[] | select(.check=="pcie.link" and .object=="0000:18:00.0")] | length')" = 0 ] ||
	fail "a conventional function's hop was judged"

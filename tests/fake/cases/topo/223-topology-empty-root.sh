# Issue 18: `topology` on a --root without a PCI tree (an empty directory, a tree that
# is not sysfs-shaped) is not an internal error (exit 3): it says which directory is
# missing and exits 1 (nothing to show), the same for --json.
mkdir -p "$T/empty"
R=$T/empty
hp topology
expect_rc 1
expect_grep err "No PCI topology to show: $T/empty/sys/bus/pci/devices does not exist" \
	"the missing directory is not named"
expect_grep err "sysfs-shaped" "no hint what --root must hold"
hp --json topology
expect_rc 1
[ -s "$T/out" ] && fail "topology --json printed something on an empty root"
# a tree with sys/ but no PCI bus: the same
mkdir -p "$T/empty/sys/class"
hp topology
expect_rc 1

# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the cases that run on real machines' snapshots (tests/fake/real/README.md).

# realroot NAME: a fresh copy of real/NAME/root.tar.xz at $R, and the pristine copy at $REF
# (expect_tree_same compares against it).
realroot() {
	FIXTURE=real-$1
	R=$T/root
	REF=$T/ref
	rm -rf "$R" "$REF"
	mkdir -p "$R" "$REF"
	tar -C "$R" -xJf "$HERE/real/$1/root.tar.xz" || { fail "cannot extract real/$1"; exit 1; }
	tar -C "$REF" -xJf "$HERE/real/$1/root.tar.xz"
}

# The real fixtures, in the order the cases walk them.
REAL_FIXTURES="vector-engines qlogic-4socket xeonphi-mlx4"

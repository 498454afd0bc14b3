# [Host] Apply=no (the shipped default): apply writes nothing.
newroot dgx8
useconf audit
hp apply
expect_rc 1
expect_tree_same
[ -e "$R/run/hostprep/acs-originals" ] && fail "Apply=no created acs-originals"
# no config at all: same
newroot dgx8
hp apply
expect_tree_same

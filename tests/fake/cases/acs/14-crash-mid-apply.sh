# apply died after recording the original and writing the word: revert restores it.
newroot dgx8
useconf gpu-p2p
mkdir -p "$R/run/hostprep"
seal "acs 0000:17:00.0 0xf24 0x001d -" >"$R/run/hostprep/acs-originals"
poke16 0000:17:00.0 $((0xf24 + 6)) 0x0011
[ "$(peek16 0000:17:00.0 $((0xf24 + 6)))" = 0011 ] || fail "test setup: poke failed"
hp revert
expect_rc 0
expect_tree_same
[ -e "$R/run/hostprep/acs-originals" ] && fail "acs-originals still exists after revert"

# apply --dry-run writes nothing and prints address, offset, old -> new per port.
newroot dgx8
useconf gpu-p2p
hp apply --dry-run
expect_tree_same
[ -e "$R/run/hostprep/acs-originals" ] && fail "dry run created acs-originals"
for p in 15:01.0 37:01.0 97:01.0 b7:01.0; do
	expect_grep out "0000:$p.*(0x)?220.*(0x)?001d.*(0x)?0011" "dry run does not show 0000:$p 0x220 0x001d -> 0x0011"
done
for p in 17:00.0 17:01.0 39:00.0 39:01.0 99:00.0 99:01.0 b9:00.0 b9:01.0; do
	expect_grep out "0000:$p.*(0x)?f24.*(0x)?001d.*(0x)?0011" "dry run does not show 0000:$p 0xf24 0x001d -> 0x0011"
done
expect_no_grep out '17:02\.0.*0011|00:01\.0.*0011' "dry run plans a write to a port nothing selects"
# also with Apply=no
useconf audit
hp apply --dry-run
expect_tree_same
[ -e "$R/run/hostprep/acs-originals" ] && fail "dry run (Apply=no) created acs-originals"

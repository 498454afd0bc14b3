# Masked read-modify-write: ACS Enhanced Control bits (7..15) the policy does not
# name survive. 17:00.0 is given cap 0x00ff (Enhanced) and ctrl 0x121d (bit 12
# Unclaimed Request Redirect, bit 9 DSP Memory Target Access); apply must write
# 0x1211: only the low byte changes. revert restores 0x121d.
newroot dgx8
useconf gpu-p2p
poke16 0000:17:00.0 $((0xf24 + 4)) 0x00ff
poke16 0000:17:00.0 $((0xf24 + 6)) 0x121d
ref_private
cp "$R/$(cfgpath 0000:17:00.0)" "$REF/$(cfgpath 0000:17:00.0)"
hp apply
expect_rc 0
[ "$(peek16 0000:17:00.0 $((0xf24 + 6)))" = 1211 ] ||
	fail "17:00.0 ACS Control after apply is $(peek16 0000:17:00.0 $((0xf24 + 6))), want 1211"
grep -Eq '^acs 0000:17:00\.0 0xf24 0x121d /sys/devices/pci0000:15/0000:15:01\.0/0000:16:00\.0/0000:17:00\.0 crc32:[0-9a-f]{8}$' "$R/run/hostprep/acs-originals" ||
	fail "acs-originals does not record 0x121d for 17:00.0"
hp revert
expect_rc 0
expect_tree_same

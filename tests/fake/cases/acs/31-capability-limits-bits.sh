# Mask=x1xxxxx (EC on): a Control bit can only be set where the Capability bit is 1.
# Downstream switch ports (cap 0x007f) go 0x001d -> 0x003d; the Intel root ports
# (cap 0x005f, no EC) are not written at all.
newroot dgx8
useconf ec-on
hp apply
expect_rc 0
expect_tree_diff <<'EOT'
./sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/config +0xf2a: 1d -> 3d
./sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:01.0/config +0xf2a: 1d -> 3d
./sys/devices/pci0000:37/0000:37:01.0/0000:38:00.0/0000:39:00.0/config +0xf2a: 1d -> 3d
./sys/devices/pci0000:37/0000:37:01.0/0000:38:00.0/0000:39:01.0/config +0xf2a: 1d -> 3d
./sys/devices/pci0000:97/0000:97:01.0/0000:98:00.0/0000:99:00.0/config +0xf2a: 1d -> 3d
./sys/devices/pci0000:97/0000:97:01.0/0000:98:00.0/0000:99:01.0/config +0xf2a: 1d -> 3d
./sys/devices/pci0000:b7/0000:b7:01.0/0000:b8:00.0/0000:b9:00.0/config +0xf2a: 1d -> 3d
./sys/devices/pci0000:b7/0000:b7:01.0/0000:b8:00.0/0000:b9:01.0/config +0xf2a: 1d -> 3d
EOT
expect_no_grep "$R/run/hostprep/acs-originals" '01\.0 0x220' "a root port without EC was recorded as written"
hp revert
expect_rc 0
expect_tree_same

# l40-amd: upstream of GPUs and NICs = the five populated GPP root ports (ACS at 0x2a0);
# the empty slot c0:01.2 is not touched.
newroot l40-amd
useconf l40
hp apply
expect_rc 0
expect_tree_diff <<'EOT'
./sys/devices/pci0000:00/0000:00:01.1/config +0x2a6: 1d -> 11
./sys/devices/pci0000:00/0000:00:01.2/config +0x2a6: 1d -> 11
./sys/devices/pci0000:40/0000:40:01.1/config +0x2a6: 1d -> 11
./sys/devices/pci0000:80/0000:80:01.1/config +0x2a6: 1d -> 11
./sys/devices/pci0000:c0/0000:c0:01.1/config +0x2a6: 1d -> 11
EOT
hp revert
expect_rc 0
expect_tree_same

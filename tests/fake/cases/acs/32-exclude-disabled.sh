# Exclude= drops 17:00.0 and the root port b7:01.0; Enabled=no drops the NIC rule.
newroot dgx8
useconf gpu-p2p-exclude
hp apply
expect_rc 0
expect_tree_diff <<'EOT'
./sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:01.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:15/0000:15:01.0/config +0x226: 1d -> 11
./sys/devices/pci0000:37/0000:37:01.0/0000:38:00.0/0000:39:00.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:37/0000:37:01.0/0000:38:00.0/0000:39:01.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:37/0000:37:01.0/config +0x226: 1d -> 11
./sys/devices/pci0000:97/0000:97:01.0/0000:98:00.0/0000:99:00.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:97/0000:97:01.0/0000:98:00.0/0000:99:01.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:97/0000:97:01.0/config +0x226: 1d -> 11
./sys/devices/pci0000:b7/0000:b7:01.0/0000:b8:00.0/0000:b9:00.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:b7/0000:b7:01.0/0000:b8:00.0/0000:b9:01.0/config +0xf2a: 1d -> 11
EOT

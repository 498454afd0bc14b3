# Select=p2p:A~B on dgx8: apply changes exactly the ACS Control words of the downstream
# ports where a GPU<->NIC pair's traffic turns (topology: 17:00.0/17:01.0/17:02.0 per
# switch, 12 ports), 0x001d -> 0x0011, and no root port (upstream: would take 15:01.0 ...).
# p2p:A alone (GPU pairs): 8 ports, not the NICs' 17:02.0. A p2p: selector outside
# [ACS:*] is refused with file:line; revert restores every word.
newroot dgx8
useconf p2p-gpu-nic
hp apply
expect_rc 0
expect_tree_diff <<'EOT'
./sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:01.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:02.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:37/0000:37:01.0/0000:38:00.0/0000:39:00.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:37/0000:37:01.0/0000:38:00.0/0000:39:01.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:37/0000:37:01.0/0000:38:00.0/0000:39:02.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:97/0000:97:01.0/0000:98:00.0/0000:99:00.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:97/0000:97:01.0/0000:98:00.0/0000:99:01.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:97/0000:97:01.0/0000:98:00.0/0000:99:02.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:b7/0000:b7:01.0/0000:b8:00.0/0000:b9:00.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:b7/0000:b7:01.0/0000:b8:00.0/0000:b9:01.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:b7/0000:b7:01.0/0000:b8:00.0/0000:b9:02.0/config +0xf2a: 1d -> 11
EOT
# the independent reader agrees: a switch port cleared, the root port above it untouched
v=$(setpci -A linux-sysfs -O "sysfs.path=$R/sys/bus/pci" -s 0000:17:02.0 ECAP_ACS+0x6.w)
[ "$v" = 0011 ] || fail "setpci reads $v at 17:02.0 after apply, want 0011"
v=$(setpci -A linux-sysfs -O "sysfs.path=$R/sys/bus/pci" -s 0000:15:01.0 ECAP_ACS+0x6.w)
[ "$v" = 001d ] || fail "setpci reads $v at root port 15:01.0 after apply, want 001d"
# and topology now says every GPU<->NIC path is direct
hp topology
expect_no_grep out 'NIC[0-9] \([^)]*\) PIX: redirected' "a GPU-NIC pair is still redirected"
expect_grep out 'GPU0 \(0000:18:00\.0\) ↔ NIC0 \(0000:1a:00\.0\) PIX: direct'
hp revert
expect_rc 0
expect_tree_same

newroot dgx8
useconf p2p-gpu-gpu
hp apply --dry-run
expect_rc 0
hp apply
expect_rc 0
expect_tree_diff <<'EOT'
./sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:01.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:37/0000:37:01.0/0000:38:00.0/0000:39:00.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:37/0000:37:01.0/0000:38:00.0/0000:39:01.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:97/0000:97:01.0/0000:98:00.0/0000:99:00.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:97/0000:97:01.0/0000:98:00.0/0000:99:01.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:b7/0000:b7:01.0/0000:b8:00.0/0000:b9:00.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:b7/0000:b7:01.0/0000:b8:00.0/0000:b9:01.0/config +0xf2a: 1d -> 11
EOT
# the merged config prints the selector back as written
hp config
expect_grep out '^Select=p2p:10de:\*$'

# p2p: is a path form of [ACS:*] only; bad forms are file:line errors, nothing touched
newroot dgx8
for bad in 'p2p:upstream:10de:*' 'p2p:10de:*~class:02~class:03' 'p2p:10de:*~zz' 'p2p:'; do
	printf '[ACS:x]\nSelect=%s\n' "$bad" >"$R/etc/hostprep/hostprep.conf"
	hp check
	expect_rc 2
	expect_grep err 'hostprep\.conf:2: Select=: invalid selector' "'$bad' is not a file:line error"
done
printf '[Topology]\nAccelerators=p2p:10de:*\n' >"$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 2
expect_grep err "hostprep\.conf:2: .*only \[ACS:\*\] Select= and Exclude= take it"

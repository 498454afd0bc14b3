# sys/bus/pci/devices names each entry after its device. An entry whose link leads to
# another name's directory is a second view of that device, never a second device: it
# is ignored, named on stderr, and counts nothing (an audit made 7 GPUs pass GPUs=8).
newroot ib-gpu
D=$R/sys/bus/pci/devices
printf '[Inventory]\nGPUs=8\n' >"$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 0
expect_grep out '^PASS +inventory\.gpus '
rm -rf "$(readlink -f "$D/0000:bb:00.0")" "$D/0000:bb:00.0"
ln -s "$(readlink "$D/0000:18:00.0")" "$D/0000:18:00.1"
hp check
expect_rc 1
expect_grep out '^FAIL +inventory\.gpus .*7'
expect_grep err "Ignoring PCI sysfs entry '0000:18:00\.1': it links to .*/0000:18:00\.0, not its own device\."
hp --json topology
[ "$(jqo '[.. | objects | select(has("address")) | .address] | map(select(. == "0000:18:00.1")) | length')" = 0 ] ||
	fail "the second view is in the topology"
# an entry that is no address as the kernel names one (a domain of eight digits) is
# named on stderr, never dropped unseen
ln -s ../../../devices/pci0000:00/a1b2c3d4:00:00.0 "$D/a1b2c3d4:00:00.0"
hp check
expect_rc 1
expect_grep err "Ignoring PCI sysfs entry 'a1b2c3d4:00:00\.0': not a PCI address as the kernel names one"

# Upgrade: with the .deb installed, an admin drop-in in /etc and the unit
# active (as after a boot), `dpkg -i` of a rebuilt package with a higher
# version keeps the drop-in byte for byte, keeps the unit enabled, and does
# not restart it (a restart runs apply: same InvocationID, registers as they
# were); the new binary is in place (--version).
HOSTPREP_INSTALL=deb
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2) $(qemu_rootport_nic 3)"

guest_check() {
	local up inv acs sum v
	assert_rc 0 "dpkg -i the current .deb" dpkg -i "$(deb_file deb)"
	mkdir -p /etc/hostprep/hostprep.conf.d
	printf '[ACS:gpu-paths]\nEnabled=no\n\n[Host]\nApply=yes\n\n[ACS:nics]\nSelect=0000:00:02.0\n' \
		>/etc/hostprep/hostprep.conf.d/50-site.conf
	sum=$(sha256sum /etc/hostprep/hostprep.conf.d/50-site.conf)
	assert_rc 0 "systemctl start hostprep (the boot run)" systemctl start hostprep.service
	assert_acs 0000:00:02.0 0011 "setpci: applied by the run"
	inv=$(unit_prop hostprep.service InvocationID)
	acs=$(acs_snapshot)

	up=$(deb_file deb-up)
	v=$(dpkg-deb -f "$up" Version)
	assert_ne "$v" "$(dpkg-query -W -f='${Version}' hostprep)" "the rebuild has another version"
	assert_rc 0 "dpkg -i the rebuilt .deb ($v)" dpkg -i "$up"
	assert_eq "$(dpkg-query -W -f='${Version}' hostprep)" "$v" "dpkg: upgraded"
	assert_eq "$(hostprep --version)" "hostprep $v" "the new binary (its --version)"
	assert_eq "$(sha256sum /etc/hostprep/hostprep.conf.d/50-site.conf)" "$sum" "the /etc drop-in kept as it was"
	assert_eq "$(unit_prop hostprep.service UnitFileState)" enabled "still enabled"
	assert_eq "$(unit_prop hostprep.service InvocationID)" "$inv" "not restarted by the upgrade"
	assert_eq "$(acs_snapshot)" "$acs" "setpci: the upgrade wrote no ACS register"
}

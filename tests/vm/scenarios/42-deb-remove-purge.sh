# Remove and purge: after hostprep applied ACS from an admin drop-in,
# `dpkg -r` leaves every ACS register as it was (setpci on all ACS devices:
# nothing reverted behind the admin's back) and says to run 'hostprep revert'
# instead; `dpkg --purge` then removes exactly what the package created: /etc
# and /usr are as before the install, except the admin's drop-in, which stays.
HOSTPREP_INSTALL=deb
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2) $(qemu_rootport_nic 3)"

guest_check() {
	local fs acs site=/etc/hostprep/hostprep.conf.d/50-site.conf
	fs=$(fs_snapshot)
	assert_rc 0 "dpkg -i the .deb" dpkg -i "$(deb_file deb)"
	printf '[ACS:gpu-paths]\nEnabled=no\n\n[Host]\nApply=yes\n\n[ACS:nics]\nSelect=0000:00:02.0\n' >"$site"
	assert_rc 0 "systemctl start hostprep" systemctl start hostprep.service
	assert_acs 0000:00:02.0 0011 "setpci: applied"
	acs=$(acs_snapshot)

	assert_rc 0 "dpkg -r hostprep" dpkg -r hostprep
	assert_match "$OUT" "hostprep revert" "dpkg -r says what the admin runs instead"
	assert_eq "$(acs_snapshot)" "$acs" "setpci: removing changed no ACS register"
	assert_eq "$(test -e /usr/bin/hostprep && echo present)" "" "removed: the binary is gone"
	assert_eq "$(test -f "$site" && echo kept)" kept "removed: the admin's drop-in stays"

	assert_rc 0 "dpkg --purge hostprep" dpkg --purge hostprep
	assert_eq "$(acs_snapshot)" "$acs" "setpci: purging changed no ACS register"
	assert_eq "$(test -f "$site" && echo kept)" kept "purged: the admin's drop-in stays"
	# (the difference, not the lists: those are thousands of lines)
	assert_eq "$(diff <(echo "$fs") <(fs_snapshot | grep -vxF -e '/etc/hostprep d' \
		-e '/etc/hostprep/hostprep.conf.d d' -e "$site f"))" \
		"" "purged: /etc and /usr as before the install, but for the admin's drop-in"
}

# A fresh install on a stock GPU/RDMA host (issue 6 item 20): only the vendor config
# (/usr/lib/hostprep/hostprep.conf: audit only, the vendor's gpu-paths rule), IOMMU
# on, so the kernel has turned ACS on above the NIC. The unit must not fail and the
# gate must stay open: nobody declared an expectation yet. The mismatch is reported
# (warn). Once the admin declares the rule in /etc (here: a drop-in that sets its
# Mask), the same mismatch closes the gate (fail), still without Apply=yes.
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2) $(qemu_rootport 3)"

guest_check() {
	assert_booted_service
	assert_eq "$(systemctl show -p Result hostprep.service)" Result=success "hostprep.service result on a stock host"
	assert_eq "$(systemctl is-failed hostprep.service)" active "no failed unit after a fresh install"
	assert_acs 0000:00:02.0 001d "setpci: audit only, nothing written"
	run_cmd hostprep status --json
	local js=$OUT
	assert_json "$js" .ready true "report: ready (no declared expectation is unmet)"
	assert_eq "$(hp_verdict "$js" acs 0000:00:02.0)" warn "report: the vendor rule's mismatch is a warning"
	assert_acs_results_match_setpci "$js"
	assert_rc 0 "hostprep check on the stock config" hostprep check

	# the admin declares the rule (a drop-in in /etc): now it is an expectation
	mkdir -p /etc/hostprep/hostprep.conf.d
	printf '[ACS:gpu-paths]\nMask=x0x00xx\n' >/etc/hostprep/hostprep.conf.d/50-declare.conf
	assert_rc 1 "hostprep check with the rule declared in /etc" hostprep check --json
	assert_eq "$(hp_verdict "$OUT" acs 0000:00:02.0)" fail "declared rule: the mismatch fails"
	assert_acs 0000:00:02.0 001d "setpci: still nothing written (Apply=no)"
}

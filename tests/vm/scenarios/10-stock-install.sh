# A fresh install on a stock GPU/RDMA host (issue 6 item 20): only the vendor config
# (/usr/lib/hostprep/hostprep.conf: audit only), IOMMU on, so the kernel has turned ACS
# on above the NIC. The unit must not fail and the gate must stay open: nobody declared
# an expectation yet. The shipped gpu-paths rule selects p2p pairs only (issue 18), so on
# this NIC-only guest it selects nothing; a vendor drop-in rule that selects the NIC's
# port shows the semantics: its mismatch is reported (warn); once the admin declares the
# rule in /etc (a drop-in that sets its Mask), the same mismatch closes the gate (fail),
# still without Apply=yes.
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
	assert_rc 0 "hostprep check on the stock config" hostprep check

	# a vendor rule that selects the NIC's port: its mismatch is a warning
	mkdir -p /usr/lib/hostprep/hostprep.conf.d /etc/hostprep/hostprep.conf.d
	printf '[ACS:nic-paths]\nSelect=upstream:class:0200\nMask=x0x00xx\n' \
		>/usr/lib/hostprep/hostprep.conf.d/60-vendor-nics.conf
	assert_rc 0 "hostprep check with a vendor rule on the NIC" hostprep check --json
	assert_eq "$(hp_verdict "$OUT" acs 0000:00:02.0)" warn "report: the vendor rule's mismatch is a warning"

	# the admin declares the rule (a drop-in in /etc): now it is an expectation
	printf '[ACS:nic-paths]\nMask=x0x00xx\n' >/etc/hostprep/hostprep.conf.d/50-declare.conf
	assert_rc 1 "hostprep check with the rule declared in /etc" hostprep check --json
	assert_eq "$(hp_verdict "$OUT" acs 0000:00:02.0)" fail "declared rule: the mismatch fails"
	assert_acs 0000:00:02.0 001d "setpci: still nothing written (Apply=no)"
}

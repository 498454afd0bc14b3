# The Ansible role for real (issue 21), part 2 (part 1: 71): on a host
# where hostprep is installed (dpkg -i), configured (50-site.conf, Apply=yes)
# and applied, and then drifted (setpci writes 0x001d back on 00:02.0):
# - check mode with a changed drop-in: the dry-run plan names the port's
#   write, the run reports changed, --diff shows the drop-in's change, and
#   nothing changed: the register (setpci), the drop-in, the report;
# - a bad drop-in (an unknown key) is refused by 'hostprep config
#   --validate-as 50-site.conf' with its file:line reason: the play fails, no
#   apply, the drop-in, the report, the registers and the drop-in directory as
#   before;
# - a new 50-site.conf that is valid only on top of its old version (its rule's
#   Select= dropped) is refused the same way (issue 25: validated as an extra
#   drop-in ".../source" it passed, and every later run exited 2).
HOSTPREP_INSTALL=deb
# (about 6 min of TCG on an idle host; each ansible-playbook run is 1-2 min, the
# check-mode one with its preview (rendered drop-ins + apply --dry-run) up to 3)
TIMEOUT=720
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU $(qemu_rootport_nic 2) $(qemu_rootport_nic 3)"
# the site drop-in the role places (the vendor rule selects nothing here: no GPU)
SITE='[Host]
Apply=yes

[ACS:nics]
Select=0000:00:02.0 0000:00:03.0'

guest_check() {
	local dropin=/etc/hostprep/hostprep.conf.d/50-site.conf report conf
	an_setup || return
	assert_rc 0 "dpkg -i the package" dpkg -i "$(deb_file deb)"
	# what the role's converge leaves (71): the same drop-in, byte for byte
	an_write_play site "$SITE"
	printf '# Ansible managed\n%s\n' "$SITE" >"$dropin"
	assert_rc 0 "hostprep apply" hostprep apply
	assert_acs 0000:00:02.0 0011 "applied: setpci 00:02.0"
	assert_rc 0 "drift: setpci 00:02.0 back to 0x001d" setpci -s 0000:00:02.0 ECAP_ACS+0x6.w=001d
	assert_acs 0000:00:02.0 001d "drift: setpci reads 0x001d"
	report=$(sha_of /run/hostprep/report.json) conf=$(sha_of "$dropin")

	an_write_play site-v2 "$SITE
# v2: a comment changes the file, not the config"
	an_play site-v2 --check --diff
	assert_eq "$RC" 0 "check mode: exit status"
	assert_eq "$(an_recap failed)" 0 "check mode: failed=0"
	assert_ne "$(an_recap changed)" 0 "check mode: changed reported"
	assert_match "$OUT" 'TASK \[hostprep : Report what an apply would change\]' "check mode: the plan reported"
	assert_match "$OUT" 'write 0000:00:02\.0 ACS@0x[0-9a-f]+ ctrl\(\+0x6\) 0x001d -> 0x0011' \
		"check mode: the dry-run plan names the port's write"
	assert_no_match "$OUT" 'write 0000:00:03\.0' "check mode: no write planned for the port that is right"
	assert_match "$OUT" '\+# v2' "check mode: --diff shows the drop-in change"
	# notified by the drop-in's would-be change, the handler's command is
	# skipped in check mode
	assert_eq "$(awk '/RUNNING HANDLER \[hostprep : Run hostprep apply\]/ { f = 1; next } f && NF { print; exit }' <<<"$OUT")" \
		"skipping: [localhost]" "check mode: the apply handler skipped"
	assert_acs 0000:00:02.0 001d "check mode: setpci unchanged (nothing written)"
	assert_eq "$(sha_of "$dropin")" "$conf" "check mode: drop-in unchanged"
	assert_eq "$(sha_of /run/hostprep/report.json)" "$report" "check mode: report unchanged"

	an_write_play site-bad '[Host]
Aply=yes'
	an_play site-bad
	assert_ne "$RC" 0 "bad drop-in: the play fails"
	assert_eq "$(an_recap failed)" 1 "bad drop-in: failed=1"
	assert_match "$OUT" "3: unknown key 'Aply' in \[Host\] section" "bad drop-in: hostprep's file:line reason"
	assert_no_match "$OUT" 'RUNNING HANDLER' "bad drop-in: no apply"
	assert_eq "$(sha_of "$dropin")" "$conf" "bad drop-in: the live drop-in unchanged"
	assert_eq "$(ls -A /etc/hostprep/hostprep.conf.d)" 50-site.conf "bad drop-in: no stray file"
	assert_eq "$(sha_of /run/hostprep/report.json)" "$report" "bad drop-in: report unchanged"
	assert_acs 0000:00:02.0 001d "bad drop-in: setpci 00:02.0 unchanged"
	assert_acs 0000:00:03.0 0011 "bad drop-in: setpci 00:03.0 unchanged"

	an_write_play site-needs-old '[Host]
Apply=yes

[ACS:nics]
Enabled=yes'
	an_play site-needs-old
	assert_ne "$RC" 0 "valid only over its old version: the play fails"
	assert_eq "$(an_recap failed)" 1 "valid only over its old version: failed=1"
	# the role validates its rendered copy (hostprep-dropins.*/50-site.conf) as 50-site.conf
	# before placing anything (fleet/ansible README: all or none)
	assert_match "$OUT" "/hostprep-dropins\.[^/]*/50-site\.conf:5: \[ACS:nics\] is enabled but no file gives it a Select=" \
		"valid only over its old version: hostprep's reason at the rendered copy's line"
	assert_no_match "$OUT" 'RUNNING HANDLER' "valid only over its old version: no apply"
	assert_eq "$(sha_of "$dropin")" "$conf" "valid only over its old version: the live drop-in unchanged"
	assert_eq "$(ls -A /etc/hostprep/hostprep.conf.d)" 50-site.conf "valid only over its old version: no stray file"
	assert_eq "$(sha_of /run/hostprep/report.json)" "$report" "valid only over its old version: report unchanged"
	assert_rc 0 "the live configuration still loads" hostprep config
}

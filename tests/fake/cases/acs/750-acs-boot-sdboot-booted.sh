# After the reboot on a systemd-boot host (issue 29 §1): no BOOT_IMAGE= on the kernel's
# command line, but the Boot Loader Interface's LoaderEntrySelected (efivarfs: the
# attribute word, the entry id in UTF-16LE, NUL-terminated) names the entry booted. It
# carries hostprep's argument, the running kernel does not: "the kernel dropped it",
# naming the entry. systemd-boot's id is the file name with or without ".conf", in lower
# case, without the boot counter of the file name ("+2-1"): each names the same entry.
. "$HERE/lib-bootvar.sh"
sdboot_host
hp acs cmdline --install
expect_rc 0

for id in abc-6.12.30.conf abc-6.12.30 ABC-6.12.30.CONF; do
	booted_sd "$id" 'root=UUID=1 ro quiet'
	hp --json check
	[ "$(verdict)" = "fail inspect" ] || fail "$id: acs.cmdline is '$(verdict)'"
	actual | grep -qxF "present in the entry booted (/efi/loader/entries/abc-6.12.30.conf) but not on the running kernel's command line: the kernel dropped it" ||
		fail "$id: '$(actual)'"
done

# a boot counter in the file name is not in the id (automatic boot assessment)
sdboot_host
mv "$R/efi/loader/entries/abc-6.12.30.conf" "$R/efi/loader/entries/abc-6.12.30+2-1.conf"
hp acs cmdline --install
expect_rc 0
booted_sd abc-6.12.30.conf 'root=UUID=1 ro quiet'
hp --json check
actual | grep -qxF "present in the entry booted (/efi/loader/entries/abc-6.12.30+2-1.conf) but not on the running kernel's command line: the kernel dropped it" ||
	fail "boot counter: '$(actual)'"

# BOOT_IMAGE= there (GRUB booted): the variable is not what names the entry; a kernel
# of no entry leaves the entry booted untold
sdboot_host
hp acs cmdline --install
booted_sd abc-6.12.29.conf 'BOOT_IMAGE=/vmlinuz-6.12.30 root=UUID=1 ro quiet'
hp --json check
[ "$(verdict)" = "fail inspect" ] || fail "BOOT_IMAGE=: acs.cmdline is '$(verdict)'"
actual | grep -qF "hostprep wrote) but not on the running kernel's command line: the entry booted was another, or the kernel dropped it" ||
	fail "BOOT_IMAGE= first: '$(actual)'"

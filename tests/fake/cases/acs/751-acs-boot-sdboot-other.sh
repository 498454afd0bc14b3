# After the reboot on a systemd-boot host (issue 29 §1): LoaderEntrySelected names an
# entry hostprep did not write (a new kernel's, installed after `acs cmdline --install`,
# or a unified kernel image, whose built-in command line is the running one): "the entry
# booted was another (X, without it)", fail, config, naming both the carrier and X.
. "$HERE/lib-bootvar.sh"
sdboot_host
hp acs cmdline --install
expect_rc 0
printf '%s\n' 'title Debian' 'linux /abc/6.12.40/linux' \
	'options root=UUID=1 ro quiet' >"$R/efi/loader/entries/abc-6.12.40.conf"
for id in abc-6.12.40.conf abc-6.12.40; do
	booted_sd "$id" 'root=UUID=1 ro quiet'
	hp --json check
	[ "$(verdict)" = "fail config" ] || fail "$id: acs.cmdline is '$(verdict)'"
	actual | grep -qE "^present in /efi/loader/entries/abc-6\.12\.(29|30)\.conf but not on the running kernel's command line: the entry booted was another \(/efi/loader/entries/abc-6\.12\.40\.conf, without it\)$" ||
		fail "$id: '$(actual)'"
done

# a UKI in the ESP's EFI/Linux: named by its .efi id, never taken for a .conf entry
mkdir -p "$R/efi/EFI/Linux"
: >"$R/efi/EFI/Linux/abc-6.12.41.efi"
booted_sd abc-6.12.41.efi 'root=UUID=1 ro quiet'
hp --json check
[ "$(verdict)" = "fail config" ] || fail "UKI: acs.cmdline is '$(verdict)'"
actual | grep -qF "the entry booted was another (/efi/EFI/Linux/abc-6.12.41.efi, without it)" ||
	fail "UKI: '$(actual)'"
: >"$R/efi/EFI/Linux/abc-6.12.30.efi"
booted_sd abc-6.12.30.efi 'root=UUID=1 ro quiet'
hp --json check
actual | grep -qF "the entry booted was another (/efi/EFI/Linux/abc-6.12.30.efi, without it)" ||
	fail "a UKI named like a .conf entry: '$(actual)'"

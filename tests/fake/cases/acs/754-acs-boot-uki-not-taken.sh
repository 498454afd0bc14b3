# After the reboot on a UKI host (issue 29 §1): no type-1 entry, the command line lives
# in /etc/kernel/cmdline, which kernel-install builds into the image. `acs cmdline
# --install` recorded only that file; the running kernel lacks the argument. acs.cmdline
# names the file as the carrier (the image booted was built before it, or the kernel
# dropped it) instead of "add it"; written after this boot began -> warn, reboot; the
# file edited since by someone else, without the argument -> back to "add it".
newroot dgx8
useconf gpu-p2p
echo "6.12.30-amd64" >"$R/proc/sys/kernel/osrelease"
printf 'root=UUID=1 ro quiet\n' >"$R/proc/cmdline"
mkdir -p "$R/efi/EFI/Linux" "$R/etc/kernel"
: >"$R/efi/EFI/Linux/abc-6.12.30.efi"
printf 'root=UUID=1 ro quiet\n' >"$R/etc/kernel/cmdline"
verdict() { jqo '[.results[] | select(.check=="acs.cmdline") | .verdict + " " + .action] | join(",")'; }
actual() { jqo '.results[] | select(.check=="acs.cmdline") | .actual'; }
booted() { # btime an hour after the file was written
	touch -d '2026-01-01 00:00:00' "$R/etc/kernel/cmdline"
	printf 'cpu  1 2 3 4\nbtime %s\nprocesses 1\n' "$(date -d '2026-01-01 01:00:00' +%s)" >"$R/proc/stat"
}

hp acs cmdline --install
expect_rc 0
grep -q 'config_acs=' "$R/etc/kernel/cmdline" || fail "/etc/kernel/cmdline not written: $(cat "$R/etc/kernel/cmdline")"

booted
hp --json check
[ "$(verdict)" = "fail inspect" ] || fail "UKI built before: acs.cmdline is '$(verdict)'"
actual | grep -qxF "present in the entry (/etc/kernel/cmdline; 1 of 1 hostprep wrote) but not on the running kernel's command line: the entry booted was another, or the kernel dropped it" ||
	fail "UKI built before: '$(actual)'"

# not rebooted since the install: reboot
touch -d '2026-01-01 02:00:00' "$R/etc/kernel/cmdline"
hp --json check
[ "$(verdict)" = "warn reboot" ] || fail "written after the boot: acs.cmdline is '$(verdict)'"
actual | grep -q '^/etc/kernel/cmdline carries it, written after this boot began' ||
	fail "written after the boot: '$(actual)'"

# someone took the argument out again: nothing carries it, "add it" as before
booted
printf 'root=UUID=1 ro quiet\n' >"$R/etc/kernel/cmdline"
hp --json check
actual | grep -q '^present in' && fail "a file without the argument named as its carrier: '$(actual)'"
true

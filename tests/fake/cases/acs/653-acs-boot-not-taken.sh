# After the reboot (issue 29 §1): the BLS entries `acs cmdline --install` wrote carry the
# argument but the running kernel's command line does not. acs.cmdline says so instead of
# "add it": the entry booted (BOOT_IMAGE=) carries it -> the kernel dropped it (fail,
# inspect); the entry booted is another, one without it -> fail, config, naming both;
# no BOOT_IMAGE= (systemd-boot) -> fail naming the entry, both causes; an entry written
# after this boot began (/proc/stat btime) -> warn, reboot. With the argument on the
# command line: pass.
fresh() {
	newroot dgx8
	useconf gpu-p2p
	ref_private
	echo "6.12.30-amd64" >"$R/proc/sys/kernel/osrelease"
	mkdir -p "$R/boot/grub2" "$R/boot/loader/entries"
	printf '%s\n' 'title Rocky Linux (6.12.30)' 'linux /vmlinuz-6.12.30' \
		'options root=/dev/mapper/rl-root ro crashkernel=auto' >"$R/boot/loader/entries/aa-6.12.30.conf"
}
# cmdline WORDS...: the running kernel's command line; btime: an hour after the edits
booted() {
	printf '%s\n' "$*" >"$R/proc/cmdline"
	touch -d '2026-01-01 00:00:00' "$R"/boot/loader/entries/*.conf
	printf 'cpu  1 2 3 4\nbtime %s\nprocesses 1\n' "$(date -d '2026-01-01 01:00:00' +%s)" >"$R/proc/stat"
}
verdict() { jqo '[.results[] | select(.check=="acs.cmdline") | .verdict + " " + .action] | join(",")'; }
actual() { jqo '.results[] | select(.check=="acs.cmdline") | .actual'; }

fresh
hp acs cmdline
arg=$(cat "$T/out")
karg=${arg//\"/}
hp acs cmdline --install
expect_rc 0

# the kernel dropped it: the entry booted carries it
booted 'BOOT_IMAGE=(hd0,gpt2)/vmlinuz-6.12.30 root=/dev/mapper/rl-root ro crashkernel=auto'
hp --json check
[ "$(verdict)" = "fail inspect" ] || fail "kernel dropped it: acs.cmdline is '$(verdict)'"
actual | grep -qxF "present in the entry booted (/boot/loader/entries/aa-6.12.30.conf) but not on the running kernel's command line: the kernel dropped it" ||
	fail "kernel dropped it: '$(actual)'"

# another entry booted: a new kernel's, made without the argument
printf '%s\n' 'title Rocky Linux (6.12.40)' 'linux /vmlinuz-6.12.40' \
	'options root=/dev/mapper/rl-root ro' >"$R/boot/loader/entries/ab-6.12.40.conf"
booted 'BOOT_IMAGE=(hd0,gpt2)/vmlinuz-6.12.40 root=/dev/mapper/rl-root ro'
hp --json check
[ "$(verdict)" = "fail config" ] || fail "another entry: acs.cmdline is '$(verdict)'"
actual | grep -qxF "present in /boot/loader/entries/aa-6.12.30.conf but not on the running kernel's command line: the entry booted was another (/boot/loader/entries/ab-6.12.40.conf, without it)" ||
	fail "another entry: '$(actual)'"
rm "$R/boot/loader/entries/ab-6.12.40.conf"

# no BOOT_IMAGE=: which entry booted is not told, both causes named
booted 'root=/dev/mapper/rl-root ro'
hp --json check
[ "$(verdict)" = "fail inspect" ] || fail "no BOOT_IMAGE: acs.cmdline is '$(verdict)'"
actual | grep -qxF "present in the entry (/boot/loader/entries/aa-6.12.30.conf; 1 of 1 hostprep wrote) but not on the running kernel's command line: the entry booted was another, or the kernel dropped it" ||
	fail "no BOOT_IMAGE: '$(actual)'"

# not rebooted since the install: a warn that says reboot
booted 'BOOT_IMAGE=(hd0,gpt2)/vmlinuz-6.12.30 root=/dev/mapper/rl-root ro'
touch -d '2026-01-01 02:00:00' "$R/boot/loader/entries/aa-6.12.30.conf"
hp --json check
[ "$(verdict)" = "warn reboot" ] || fail "not rebooted: acs.cmdline is '$(verdict)'"
actual | grep -qF "aa-6.12.30.conf carries it, written after this boot began" || fail "not rebooted: '$(actual)'"

# the kernel took it: pass
booted "BOOT_IMAGE=(hd0,gpt2)/vmlinuz-6.12.30 root=/dev/mapper/rl-root ro $karg"
hp --json check
[ "$(verdict)" = "pass none" ] || fail "taken: acs.cmdline is '$(verdict)'"

# nothing recorded (hostprep never installed it): the old warn with the argument to add
hp acs cmdline --uninstall
expect_rc 0
booted 'BOOT_IMAGE=(hd0,gpt2)/vmlinuz-6.12.30 root=/dev/mapper/rl-root ro'
hp --json check
[ "$(verdict)" = "warn config" ] || fail "not installed: acs.cmdline is '$(verdict)'"

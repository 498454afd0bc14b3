# With the kernel release unknown (unreadable) or unparsable, `acs cmdline` refuses
# instead of printing the 6.11+ form: a config_acs= argument is ignored before 6.11 and
# half-read on 6.11-6.14.1 (issue 27, small items). The check still runs.
newroot dgx8
useconf gpu-p2p
ref_private
rm -f "$R/proc/sys/kernel/osrelease" "$REF/proc/sys/kernel/osrelease"
hp acs cmdline
expect_rc 1
[ -s "$T/out" ] && fail "acs cmdline printed an argument for an unknown kernel: $(cat "$T/out")"
expect_grep err "Kernel release unknown: which boot-time ACS parameter it takes .* cannot be told, so no argument is printed"
expect_tree_same
for d in "$R" "$REF"; do echo "linux-next" >"$d/proc/sys/kernel/osrelease"; done
hp acs cmdline
expect_rc 1
expect_grep err "Kernel release 'linux-next' does not parse: which boot-time ACS parameter"
# the known kernel still gets its argument
for d in "$R" "$REF"; do echo "6.12.30-amd64" >"$d/proc/sys/kernel/osrelease"; done
hp acs cmdline
expect_rc 0
expect_grep out '^pci=config_acs="'

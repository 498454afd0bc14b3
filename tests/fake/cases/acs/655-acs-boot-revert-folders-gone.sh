# Revert after `acs cmdline --install` (issue 29 §1): a folder hostprep made for a file
# it wrote (/etc/kernel for /etc/kernel/cmdline) is recorded ("dir /etc/kernel made")
# and removed once empty, never one that was there, and one that holds something else
# by then is kept; hostprep's backup folder goes with its last backup. A boot entry
# hostprep edited and that is gone since (its kernel removed) is nothing to restore: a
# pass that says so, not "changed since"; the other files come back byte for byte.
sdboot() {
	newroot dgx8
	useconf gpu-p2p
	ref_private
	for d in "$R" "$REF"; do
		echo "6.12.30-amd64" >"$d/proc/sys/kernel/osrelease"
		mkdir -p "$d/efi/loader/entries"
		printf '%s\n' 'title Debian' 'linux /vmlinuz-6.12.30' 'options root=/dev/sda1 ro' \
			>"$d/efi/loader/entries/d-6.12.30.conf"
		printf '%s\n' 'title Debian' 'linux /vmlinuz-6.12.20' 'options root=/dev/sda1 ro' \
			>"$d/efi/loader/entries/d-6.12.20.conf"
	done
}
O=var/lib/hostprep/originals

# /etc/kernel made by hostprep: recorded, gone after the revert
sdboot
[ -e "$R/etc/kernel" ] && fail "fixture has /etc/kernel"
hp acs cmdline --install
expect_rc 0
[ -f "$R/etc/kernel/cmdline" ] || fail "/etc/kernel/cmdline not written"
grep -q '^dir /etc/kernel made crc32:' "$R/$O" || fail "record lacks the folder made: $(cat "$R/$O")"
hp -v revert
expect_rc 0
expect_tree_diff <<'EOT'
entry: +d 755 ./var
entry: +d 755 ./var/lib
entry: +d 755 ./var/lib/hostprep
EOT

# /etc/kernel there before (empty): kept
sdboot
mkdir -p "$R/etc/kernel" "$REF/etc/kernel"
hp acs cmdline --install
expect_rc 0
grep -q '^dir ' "$R/$O" && fail "a folder that was there is recorded as made: $(cat "$R/$O")"
hp -v revert
expect_rc 0
[ -d "$R/etc/kernel" ] || fail "revert removed /etc/kernel, which was there before"
expect_tree_diff <<'EOT'
entry: +d 755 ./var
entry: +d 755 ./var/lib
entry: +d 755 ./var/lib/hostprep
EOT

# made by hostprep, then the admin put install.conf there: kept, and forgotten
sdboot
hp acs cmdline --install
echo 'layout=bls' >"$R/etc/kernel/install.conf"
hp -v revert
expect_rc 0
[ -f "$R/etc/kernel/install.conf" ] || fail "revert removed the admin's install.conf"
[ -e "$R/etc/kernel/cmdline" ] && fail "revert left /etc/kernel/cmdline"
[ -e "$R/$O" ] && fail "the record outlived the revert: $(cat "$R/$O")"

# an entry edited by hostprep, deleted since with its kernel: nothing to restore, a pass
sdboot
hp acs cmdline --install
expect_rc 0
rm "$R/efi/loader/entries/d-6.12.20.conf" "$REF/efi/loader/entries/d-6.12.20.conf"
hp -v revert
expect_rc 0
expect_grep out '^PASS +acs\.revert +/efi/loader/entries/d-6\.12\.20\.conf +as before hostprep +gone: removed since hostprep edited it; nothing to restore, the original not put back$'
expect_grep out '^PASS +acs\.revert +/efi/loader/entries/d-6\.12\.30\.conf +as before hostprep +restored the original'
expect_no_grep out 'changed since'
[ -e "$R/$O" ] && fail "the record outlived the revert: $(cat "$R/$O")"
expect_tree_diff <<'EOT'
entry: +d 755 ./var
entry: +d 755 ./var/lib
entry: +d 755 ./var/lib/hostprep
EOT

# acs cmdline --install on a RHEL/Fedora host (issue 29 §1): GRUB with BLS entries
# (/boot/grub2, /boot/loader/entries). The Debian drop-in is not read there
# (grub2-mkconfig ignores /etc/default/grub.d), so hostprep edits what grubby
# --update-kernel=ALL --args would: every entry's options line (an older
# pci=config_acs= replaced, other pci= options kept), grubenv's kernelopts where an
# entry says $kernelopts (the 1024-byte block kept), GRUB_CMDLINE_LINUX in
# /etc/default/grub; each entry read back and judged as GRUB and the kernel read it;
# --uninstall and revert put every file back byte for byte.
O=var/lib/hostprep/originals
fresh() {
	newroot dgx8
	useconf gpu-p2p
	ref_private
	for d in "$R" "$REF"; do
		echo "6.12.30-amd64" >"$d/proc/sys/kernel/osrelease"
		mkdir -p "$d/boot/grub2" "$d/boot/loader/entries" "$d/etc/default"
		printf '%s\n' 'GRUB_TIMEOUT=5' 'GRUB_CMDLINE_LINUX="crashkernel=auto rhgb quiet"' \
			'GRUB_ENABLE_BLSCFG=true' >"$d/etc/default/grub"
		printf '%s\n' 'title Rocky Linux (5.14.0-427)' 'version 5.14.0-427' 'linux /vmlinuz-5.14.0-427' \
			'options root=/dev/mapper/rl-root ro pci=noaer,config_acs=xx000x0@0000:15:01.0 crashkernel=auto' \
			'grub_users $grub_users' >"$d/boot/loader/entries/aa-5.14.0-427.conf"
		printf '%s\n' 'title Rocky Linux (5.14.0-362)' 'linux /vmlinuz-5.14.0-362' \
			'options $kernelopts $tuned_params' >"$d/boot/loader/entries/ab-5.14.0-362.conf"
		chmod 600 "$d/boot/loader/entries/ab-5.14.0-362.conf"
		python3 - "$d/boot/grub2/grubenv" <<'PY'
import sys
b = b"# GRUB Environment Block\nsaved_entry=aa-5.14.0-427\nkernelopts=root=/dev/mapper/rl-root ro crashkernel=auto\n"
open(sys.argv[1], "wb").write(b + b"#" * (1024 - len(b)))
PY
	done
}
fresh
hp acs cmdline
arg=$(cat "$T/out")
karg=$(printf '%s' "$arg" | tr -d '"')
shq=$(printf '%s' "$arg" | sed 's/"/\\"/g')
hp -v acs cmdline --install
expect_rc 0
expect_grep out '^PASS +acs\.boot +boot path .*GRUB with BLS entries \(RHEL, Fedora\), edited as grubby'
expect_grep out '^PASS +acs\.boot +/boot/loader/entries/aa-5\.14\.0-427\.conf .*written, read back$'
expect_grep out '^PASS +acs\.boot +/boot/grub2/grubenv .*written, read back$'
expect_grep out '^PASS +acs\.boot +/etc/default/grub .*written, read back$'
expect_grep out "^PASS +acs\.boot +/boot/loader/entries +every entry .* all 2 entries give the kernel hostprep's argument$"
expect_grep err 'grubby --update-kernel=ALL'
expect_no_grep out 'acs\.grub'
[ -e "$R/etc/default/grub.d" ] && fail "the Debian drop-in was written on a BLS host"
# the exact bytes grubby would leave: the older value replaced, pci=noaer kept
want_a=$(printf '%s\n' 'title Rocky Linux (5.14.0-427)' 'version 5.14.0-427' 'linux /vmlinuz-5.14.0-427' \
	"options root=/dev/mapper/rl-root ro pci=noaer crashkernel=auto $arg" 'grub_users $grub_users')
[ "$(cat "$R/boot/loader/entries/aa-5.14.0-427.conf")" = "$want_a" ] ||
	fail "entry a: $(cat "$R/boot/loader/entries/aa-5.14.0-427.conf")"
cmp -s "$R/boot/loader/entries/ab-5.14.0-362.conf" "$REF/boot/loader/entries/ab-5.14.0-362.conf" ||
	fail "the \$kernelopts entry was edited: $(cat "$R/boot/loader/entries/ab-5.14.0-362.conf")"
[ "$(stat -c %s "$R/boot/grub2/grubenv")" = 1024 ] || fail "grubenv is $(stat -c %s "$R/boot/grub2/grubenv") bytes"
grep -qxF "kernelopts=root=/dev/mapper/rl-root ro crashkernel=auto $arg" "$R/boot/grub2/grubenv" ||
	fail "grubenv: $(tr -d '#' <"$R/boot/grub2/grubenv")"
got=$(sh -c '. "$1"; printf %s "$GRUB_CMDLINE_LINUX"' sh "$R/etc/default/grub")
[ "$got" = "crashkernel=auto rhgb quiet $arg" ] || fail "GRUB_CMDLINE_LINUX is '$got'"
[ "$(stat -c %a "$R/boot/loader/entries/ab-5.14.0-362.conf")" = 600 ] || fail "entry mode changed"
# installed twice: nothing changes, the record included
cp -a "$R" "$T/once"
hp -v acs cmdline --install
expect_rc 0
expect_grep out '^PASS +acs\.boot +/boot/grub2/grubenv .*already up to date$'
expect_tree_same "$T/once"
rm -rf "$T/once"
# revert: every file byte for byte as before
hp -v acs cmdline --uninstall
expect_rc 0
expect_grep out '^PASS +acs\.revert +/boot/grub2/grubenv +as before hostprep +restored the original 1024 bytes'
expect_tree_diff <<'EOT'
entry: +d 755 ./var
entry: +d 755 ./var/lib
entry: +d 755 ./var/lib/hostprep
EOT

# grubenv changed after the install (grub2-editenv): not overwritten, and the entry that
# says $kernelopts no longer gives the kernel the argument: a fail naming that entry
fresh
hp -v acs cmdline --install
expect_rc 0
python3 - "$R/boot/grub2/grubenv" <<'PY'
import sys
b = b"# GRUB Environment Block\nkernelopts=root=/dev/mapper/rl-root ro\n"
open(sys.argv[1], "wb").write(b + b"#" * (1024 - len(b)))
PY
hp -v acs cmdline --install
expect_rc 1
expect_grep out '^FAIL +acs\.boot +/boot/grub2/grubenv .*not written: changed since hostprep wrote it'
expect_grep out "^FAIL +acs\.boot +/boot/loader/entries .*ab-5\.14\.0-362\.conf: lacks hostprep's argument \(1 of 2 entries carry it\)"

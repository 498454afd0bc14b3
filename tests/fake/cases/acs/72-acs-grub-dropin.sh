# acs cmdline --install: the boot-time argument as the hostprep-owned GRUB drop-in
# /etc/default/grub.d/50-hostprep-acs.cfg (exact bytes; sourced by sh after
# /etc/default/grub it appends the argument with its quotes to GRUB_CMDLINE_LINUX),
# recorded in /var/lib/hostprep/originals before the write; revert and --uninstall put
# back what was there (absent -> removed, an admin's file -> its bytes and mode); a file
# changed since is kept; refused where no /etc/default/grub or the kernel has no form.
D=etc/default/grub.d/50-hostprep-acs.cfg
S=/etc/default/grub.d/50-hostprep-acs.cfg
O=var/lib/hostprep/originals
crc() { python3 -c 'import sys,zlib; print("%08x" % zlib.crc32(open(sys.argv[1],"rb").read()))' "$1"; }
want() {
	printf '%s\n' "# hostprep owns this file (hostprep acs cmdline --install); 'hostprep revert' or" \
		"# 'hostprep acs cmdline --uninstall' restores what was here before." \
		"# grub.cfg takes it only when regenerated: update-grub (Debian, Ubuntu)." \
		"GRUB_CMDLINE_LINUX=\"\$GRUB_CMDLINE_LINUX ${1//\"/\\\"}\""
}
fresh() {
	newroot dgx8
	useconf "${1:-gpu-p2p}"
	ref_private
	for d in "$R" "$REF"; do echo "6.12.30-amd64" >"$d/proc/sys/kernel/osrelease"; done
}

# no /etc/default/grub: grub-mkconfig does not make this host's menu -> refused, nothing written
fresh
hp -v acs cmdline --install
expect_rc 1
expect_grep out "^FAIL +acs\.grub +$S .*not written: no /etc/default/grub"
expect_tree_same

grub_default() { for d in "$R" "$REF"; do mkdir -p "$d/etc/default" && printf 'GRUB_CMDLINE_LINUX="%s"\n' "$1" >"$d/etc/default/grub"; done; }
grub_default quiet
hp -v acs cmdline
arg=$(cat "$T/out")
case $arg in 'pci=config_acs="'*'"') ;; *) fail "acs cmdline printed '$arg'" ;; esac
hp -v acs cmdline --install
expect_rc 0
expect_grep out "^PASS +acs\.grub +$S .*written, read back$"
expect_grep err 'update-grub'
want "$arg" >"$T/want"
cmp -s "$T/want" "$R/$D" || fail "drop-in bytes: $(od -c "$R/$D" | head -8)"
[ "$(stat -c %a "$R/$D")" = 644 ] || fail "mode $(stat -c %a "$R/$D"), want 644"
# what grub-mkconfig's shell makes of it: the argument with its quotes (GRUB's parser drops them)
got=$(sh -c '. "$1/etc/default/grub"; for f in "$1"/etc/default/grub.d/*.cfg; do . "$f"; done; printf "%s" "$GRUB_CMDLINE_LINUX"' sh "$R")
[ "$got" = "quiet $arg" ] || fail "sourced GRUB_CMDLINE_LINUX is '$got', want 'quiet $arg'"
expect_sealed "$R/$O"
{
	seal "file $S absent"
	seal "dir /etc/default/grub.d made" # revert removes it once empty
	seal "wrote $S $(stat -c %s "$T/want") $(crc "$T/want")"
} >"$T/rec.want"
reseal "$T/rec.want"
cmp -s "$T/rec.want" "$R/$O" || fail "record: $(cat "$R/$O") want $(cat "$T/rec.want")"
cp "$R/$O" "$T/rec.1"
hp -v acs cmdline --install
expect_rc 0
expect_grep out "^PASS +acs\.grub +$S .*already up to date$"
cmp -s "$T/rec.1" "$R/$O" || fail "an up-to-date install changed the record"
hp -v revert
expect_rc 0
expect_grep out "^PASS +acs\.revert +$S +as before hostprep +removed \(there was no such file before hostprep\)$"
expect_tree_diff <<'EOT'
entry: +d 755 ./var
entry: +d 755 ./var/lib
entry: +d 755 ./var/lib/hostprep
EOT
hp -v acs cmdline --uninstall
expect_rc 0
expect_grep err 'Nothing to uninstall'

# an admin's file was there (mode 600), and the store already holds another file's
# sealed lines: install records the bytes, --uninstall restores bytes and mode and
# keeps the other file's lines byte-exact
fresh
grub_default ""
mkdir -p "$R/etc/default/grub.d" "$R/var/lib/hostprep"
printf 'GRUB_TIMEOUT=3\n' >"$R/$D"
chmod 600 "$R/$D"
cp -a "$R/$D" "$T/orig"
seal "file /etc/modprobe.d/hostprep.conf absent" >"$R/$O"
cp "$R/$O" "$T/other"
hp -v acs cmdline --install
expect_rc 0
expect_grep out "^PASS +acs\.grub +$S .*written, read back$"
{
	cat "$T/other"
	seal "file $S bytes $(stat -c %s "$T/orig") $(crc "$T/orig") 0600"
	seal "wrote $S $(stat -c %s "$R/$D") $(crc "$R/$D")"
} >"$T/rec.want"
reseal "$T/rec.want"
cmp -s "$T/rec.want" "$R/$O" || fail "record with a preexisting file: $(cat "$R/$O")"
cmp -s "$R/var/lib/hostprep/files/$(crc "$T/orig").orig" "$T/orig" || fail "no backup of the admin's file"
hp -v acs cmdline --uninstall
expect_rc 0
expect_grep out "^PASS +acs\.revert +$S +as before hostprep +restored the original 15 bytes, read back$"
cmp -s "$T/orig" "$R/$D" || fail "the admin's file is not back"
[ "$(stat -c %a "$R/$D")" = 600 ] || fail "restored mode $(stat -c %a "$R/$D"), want 600"
reseal "$T/other" # an earlier hostprep's record: rewritten with its header
cmp -s "$T/other" "$R/$O" || fail "the other file's record lines changed: $(cat "$R/$O")"

# changed by the admin after the install: install and revert refuse and keep it
hp -v acs cmdline --install
expect_rc 0
printf '# mine now\n' >>"$R/$D"
cp "$R/$D" "$T/changed"
hp -v acs cmdline --install
expect_rc 1
expect_grep out "^FAIL +acs\.grub +$S .*not written: changed since hostprep wrote it$"
hp -v revert
expect_rc 1
expect_grep out "^FAIL +acs\.revert +$S +as before hostprep +not restored: changed since hostprep wrote it; left as it is$"
cmp -s "$T/changed" "$R/$D" || fail "the admin's change was overwritten"

# a kernel without a boot-time form for the policy (6.1, mask 0000000): refused, nothing written
newroot dgx8
useconf gpu-p2p-zero
grub_default ""
hp -v acs cmdline --install
expect_rc 1
expect_grep err 'no boot-time form'
expect_tree_same
# --install goes with acs cmdline only
hp -v check --install
expect_rc 2
expect_grep err '--install is an option of acs, not of check'

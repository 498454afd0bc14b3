# hostprep snapshot leaks no secret (issue 25 §6). Of /etc/hostprep it takes the files the
# run parsed (the configuration and its drop-ins), not a configuration repository's
# .git/config deploy token, a site.env, or a file of the drop-in directory that is not a
# drop-in. It cuts GRUB's password commands wherever they stand (after ';', inside
# if/then, across a '\' continuation, commented out, through a variable, GRUB2_PASSWORD)
# and the credential forms of kernel parameters (iSCSI CHAP, rd.iscsi.*password, CIFS, a
# URL's password, systemd credentials) in /proc/cmdline and the boot files; the manifest
# names each cut by file and line (golden/snapshot-redacted.txt), never the secret. Every
# other byte is kept: the files are pinned whole, and the replay gives the live report.
. "$HERE/lib-snapshot.sh"
newroot dgx8
useconf gpu-p2p
echo "6.12.30-amd64" >"$R/proc/sys/kernel/osrelease"
mkdir -p "$R/etc/default/grub.d" "$R/boot/grub" "$R/etc/hostprep/repo/.git" \
	"$R/etc/hostprep/hostprep.conf.d"
echo 'GRUB_CMDLINE_LINUX="quiet rd.iscsi.password=SECRET-01 ro"' >"$R/etc/default/grub"
hp acs cmdline
arg=$(cat "$T/out")
hp --json acs cmdline --install
expect_rc 0

# hostprep's directory: what the loader parses, and what it does not
printf '[remote "origin"]\n\turl = https://oauth2:SECRET-02@git.example.com/site.git\n' \
	>"$R/etc/hostprep/repo/.git/config"
echo 'API_TOKEN=SECRET-03' >"$R/etc/hostprep/site.env"
echo '# a drop-in the loader parses' >"$R/etc/hostprep/hostprep.conf.d/50-site.conf"
echo 'SECRET-04' >"$R/etc/hostprep/hostprep.conf.d/notes.txt"
echo '# SECRET-05' >"$R/etc/hostprep/hostprep.conf.d/.hidden.conf"

# GRUB: every place a password command can stand
cat >"$R/boot/grub/grub.cfg" <<EOF
set superusers="root"; password_pbkdf2 root grub.pbkdf2.sha512.10000.SECRET-06
if [ -f \${prefix}/user.cfg ]; then password admin SECRET-07; fi
password_pbkdf2 backup \\
	grub.pbkdf2.sha512.10000.SECRET-08
# password_pbkdf2 old grub.pbkdf2.sha512.10000.SECRET-09
set pw="SECRET-10"
password_pbkdf2 ops \${pw}
GRUB2_PASSWORD=grub.pbkdf2.sha512.10000.SECRET-11
passwordless_menu=1
menuentry 'Debian' {
	linux /boot/vmlinuz-6.12.30-amd64 root=UUID=1 ro quiet netroot=iscsi:ini:SECRET-12@10.0.0.1::3260::iqn.2009-06.x:t0 $arg
}
EOF
cat >"$T/grub.want" <<EOF
set superusers="root"; password_pbkdf2 root REDACTED
if [ -f \${prefix}/user.cfg ]; then password admin REDACTED; fi
password_pbkdf2 backup \\
	REDACTED
# password_pbkdf2 old REDACTED
set pw=REDACTED
password_pbkdf2 ops REDACTED
GRUB2_PASSWORD=REDACTED
passwordless_menu=1
menuentry 'Debian' {
	linux /boot/vmlinuz-6.12.30-amd64 root=UUID=1 ro quiet netroot=iscsi:ini:REDACTED@10.0.0.1::3260::iqn.2009-06.x:t0 $arg
}
EOF

# the kernel command line: the forms of dracut.cmdline(7) and systemd's credentials
cmdline=$(cat "$R/proc/cmdline")
printf '%s %s\n' "$cmdline" 'netroot=iscsi:ini:SECRET-13:tgt:SECRET-14@[2001:db8::1]::::iqn.x:t1 rd.iscsi.username=ini rd.iscsi.password=SECRET-15 rd.iscsi.in.password="SECRET-16 x" root=cifs://u:SECRET-17@10.0.0.2:/srv cifspass=SECRET-18 inst.ks=https://u:SECRET-19@h/ks.cfg systemd.set_credential=passwd.plaintext-password.root:SECRET-20 iommu.passthrough=0' >"$R/proc/cmdline"
printf '%s %s\n' "$cmdline" 'netroot=iscsi:ini:REDACTED@[2001:db8::1]::::iqn.x:t1 rd.iscsi.username=ini rd.iscsi.password=REDACTED rd.iscsi.in.password=REDACTED root=cifs://u:REDACTED@10.0.0.2:/srv cifspass=REDACTED inst.ks=https://u:REDACTED@h/ks.cfg systemd.set_credential=passwd.plaintext-password.root:REDACTED iommu.passthrough=0' >"$T/cmdline.want"

hp --json check
rc_host=$RC
cp "$T/out" "$T/host.json"
[ "$(jq -r '[.results[] | select(.check=="acs.grub")] | length' "$T/host.json")" -ge 1 ] ||
	fail "no acs.grub result: the check did not read the GRUB files"
hp snapshot -o "$T/s.tar.zst"
expect_rc 0
snap_extract "$T/s.tar.zst" "$T/x"
if grep -rqa SECRET "$T/x"; then
	fail "a secret is in the tar: $(grep -rla SECRET "$T/x" | sed "s|$T/x/||" | tr '\n' ' ')"
	grep -rha SECRET "$T/x" | head -5 | sed 's/^/    /'
fi

# the configuration as parsed, and nothing else of /etc/hostprep
tar -tf "$T/s.tar.zst" | grep '^etc/hostprep' | LC_ALL=C sort >"$T/hostprep.members"
printf '%s\n' etc/hostprep/ etc/hostprep/hostprep.conf etc/hostprep/hostprep.conf.d/ \
	etc/hostprep/hostprep.conf.d/50-site.conf >"$T/hostprep.want"
diff "$T/hostprep.want" "$T/hostprep.members" >"$T/d" || fail "etc/hostprep in the tar: $(cat "$T/d")"

# the secrets cut, every other byte kept
cmp -s "$T/grub.want" "$T/x/boot/grub/grub.cfg" ||
	fail "grub.cfg: $(diff "$T/grub.want" "$T/x/boot/grub/grub.cfg" | head -20)"
cmp -s "$T/cmdline.want" "$T/x/proc/cmdline" ||
	fail "proc/cmdline: $(diff "$T/cmdline.want" "$T/x/proc/cmdline")"
grep -qxF 'GRUB_CMDLINE_LINUX="quiet rd.iscsi.password=REDACTED ro"' "$T/x/etc/default/grub" ||
	fail "etc/default/grub: $(cat "$T/x/etc/default/grub")"

# each cut named, by file and line
man=$T/x/hostprep-snapshot.txt
grep '^redacted ' "$man" >"$T/out"
RC=0
golden snapshot-redacted.txt
grep -q '^redacted 16 secrets' "$man" || fail "manifest: $(grep '^redacted [0-9]' "$man")"

# the replay is the live run
"$BIN" --root "$T/x" --no-color --json check </dev/null >"$T/replay.json" 2>"$T/replay.err"
[ "$?" = "$rc_host" ] || fail "the replay's exit differs from $rc_host"
diff <(snap_norm "$T/host.json" "$R") <(snap_norm "$T/replay.json" "$T/x") >"$T/rt.diff" ||
	fail "the replay's report differs: $(head -20 "$T/rt.diff")"

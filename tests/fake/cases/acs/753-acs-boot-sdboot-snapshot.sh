# hostprep snapshot keeps systemd-boot's LoaderEntrySelected (issue 29 §1): the variable's
# bytes as efivarfs gave them, so that the replay of a systemd-boot host names the same
# entry booted as the host's own check.
. "$HERE/lib-snapshot.sh"
. "$HERE/lib-bootvar.sh"
sdboot_host
hp acs cmdline --install
expect_rc 0
booted_sd abc-6.12.30 'root=UUID=1 ro quiet'
hp --json check
actual | grep -qF "present in the entry booted (/efi/loader/entries/abc-6.12.30.conf)" || fail "host: '$(actual)'"
cp "$T/out" "$T/host.json"
hp snapshot -o "$T/snap.tar.zst"
expect_rc 0
snap_extract "$T/snap.tar.zst" "$T/x"
cmp -s "$R/$LOADER_VAR" "$T/x/$LOADER_VAR" || fail "the variable is not in the snapshot as it was"
"$BIN" --root "$T/x" --no-color --json check </dev/null >"$T/replay.json" 2>"$T/replay.err"
jq -r '.results[] | select(.check=="acs.cmdline") | .actual' "$T/replay.json" |
	grep -qF "present in the entry booted (/efi/loader/entries/abc-6.12.30.conf)" ||
	fail "replay: $(jq -c '.results[] | select(.check=="acs.cmdline")' "$T/replay.json")"

# taken even where the check pass does not read it (no ACS rule, so no acs.cmdline)
sdboot_host
rm "$R/etc/hostprep/hostprep.conf"
loader_id abc-6.12.30.conf
hp --json check
jqo -e '[.results[] | select(.check=="acs.cmdline")] | length == 0' >/dev/null || fail "acs.cmdline judged without a rule"
hp snapshot -o "$T/snap2.tar.zst"
expect_rc 0
snap_extract "$T/snap2.tar.zst" "$T/y"
cmp -s "$R/$LOADER_VAR" "$T/y/$LOADER_VAR" || fail "not captured without an install"

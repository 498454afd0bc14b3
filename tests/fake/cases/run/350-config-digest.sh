# The configuration a run used, named the same way in the report, status --json and the
# textfile: config_files lists what was read in parse order (no --root prefix), and
# config_digest equals an independent SHA-256 over those files (digest_oracle.py, hashlib).
. "$HERE/lib-sinks.sh"
ORACLE=$HERE/digest_oracle.py

# the report's config_files (one per line) and config_digest, from $T/out
report_files() { jqo '.config_files[]'; }
report_digest() { jqo '.config_digest'; }

newroot dgx8
P=$R/$PROM_DIR/hostprep.prom
useconf gpu-p2p
sink_dirs
install -d "$R/usr/lib/hostprep"
printf '# vendor defaults\n[Host]\nApply=no\n' >"$R/usr/lib/hostprep/hostprep.conf"
dropin dropin-nic 50-nic.conf
hp --json check
expect_rc 1
want=$'/usr/lib/hostprep/hostprep.conf\n/etc/hostprep/hostprep.conf\n/etc/hostprep/hostprep.conf.d/50-nic.conf'
[ "$(report_files)" = "$want" ] || fail "config_files: $(report_files | tr '\n' ' ') (want the parse order: vendor, /etc, drop-ins)"
d=$(report_digest)
mapfile -t files < <(report_files)
o=$("$ORACLE" "$R" "${files[@]}")
[ "$d" = "$o" ] || fail "config_digest $d != the oracle's $o"
[[ $d =~ ^[0-9a-f]{64}$ ]] || fail "config_digest '$d' is not 64 lower-case hex digits"

# status --json: the same, from the published report
hp --json status
[ "$(report_digest)" = "$d" ] || fail "status --json digest $(report_digest) != the run's $d"
[ "$(report_files)" = "$want" ] || fail "status --json config_files differ from the run's"
# the textfile: hostprep_info with the same digest and this version, valid for promtool
v=$("$BIN" --version | awk '{print $2}')
expect_grep "$P" "^hostprep_info\\{version=\"$v\",config_digest=\"$d\"\\} 1$"
expect_promtool "$P"
[ "$(grep -c '^hostprep_info' "$P")" = 1 ] || fail "more than one hostprep_info series"

# the same files under another root: the same digest (names are shown without the root)
cp -a "$R" "$T/root2"
"$BIN" --root "$T/root2" --json check >"$T/out2" 2>/dev/null
[ "$(jq -r .config_digest "$T/out2")" = "$d" ] || fail "the digest depends on the root prefix"
rm -rf "$T/root2"

# one byte more in a drop-in: another digest, still the oracle's
printf '#\n' >>"$R/etc/hostprep/hostprep.conf.d/50-nic.conf"
hp --json check
d2=$(report_digest)
[ "$d2" != "$d" ] || fail "a changed drop-in left the digest as it was"
[ "$d2" = "$("$ORACLE" "$R" "${files[@]}")" ] || fail "config_digest after the change != the oracle's"

# a masked drop-in (symlink to /dev/null) is not read: not listed, not digested
ln -s /dev/null "$R/etc/hostprep/hostprep.conf.d/60-masked.conf"
hp --json check
[ "$(report_files)" = "$want" ] || fail "a masked drop-in is listed: $(report_files | tr '\n' ' ')"
[ "$(report_digest)" = "$d2" ] || fail "a masked drop-in changed the digest"
true

# Malformed configs: exit 2, "<file>:<line>:" on stderr with the right line,
# nothing written. Each bad-configs/*.conf starts with "# expect-line: N".
n=0
for src in "$HERE"/bad-configs/*.conf; do
	n=$((n + 1))
	name=$(basename "$src")
	line=$(sed -n '1s/^# expect-line: \([0-9]*\)$/\1/p' "$src")
	[ -n "$line" ] || { fail "$name: no '# expect-line: N' header"; continue; }
	newroot dgx8
	cfg=$T/$name
	install -m 0644 "$src" "$cfg"
	# 1. --config FILE apply
	hp --config "$cfg" apply
	[ "$RC" = 2 ] || fail "$name: apply --config exit $RC, want 2"
	grep -qF "$cfg:$line:" "$T/err" || fail "$name: stderr lacks '$cfg:$line:': $(head -c 300 "$T/err")"
	expect_tree_same
	[ -e "$R/run/hostprep/acs-originals" ] && fail "$name: acs-originals written"
	# 2. config --validate FILE
	hp config --validate "$cfg"
	[ "$RC" = 2 ] || fail "$name: config --validate exit $RC, want 2"
	grep -qF "$cfg:$line:" "$T/err" || fail "$name: validate: stderr lacks '$cfg:$line:'"
	# 3. the same file found by the search as <root>/etc/hostprep/hostprep.conf
	ref_private
	install -m 0644 "$src" "$R/etc/hostprep/hostprep.conf"
	install -m 0644 "$src" "$REF/etc/hostprep/hostprep.conf"
	hp apply
	[ "$RC" = 2 ] || fail "$name: apply (etc/hostprep/hostprep.conf) exit $RC, want 2"
	grep -q "hostprep\.conf:$line:" "$T/err" || fail "$name: etc: stderr lacks 'hostprep.conf:$line:': $(head -c 300 "$T/err")"
	expect_tree_same
done
[ $n -ge 12 ] || fail "only $n bad configs"
note "$n bad configs"

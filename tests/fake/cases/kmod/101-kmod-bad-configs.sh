# Malformed or contradicting [Module:*]/[GPUDirect] configs: exit 2, "<file>:<line>:" on
# stderr, nothing done (tree untouched), however the file is given.
n=0
for src in "$HERE"/kmod/bad-configs/*.conf; do
	n=$((n + 1))
	name=$(basename "$src")
	line=$(sed -n '1s/^# expect-line: \([0-9]*\)$/\1/p' "$src")
	newroot erdma-absent
	cfg=$T/$name
	install -m 0644 "$src" "$cfg"
	hp --config "$cfg" apply
	[ "$RC" = 2 ] || fail "$name: apply --config exit $RC, want 2"
	grep -qF "$cfg:$line:" "$T/err" || fail "$name: stderr lacks '$cfg:$line:': $(head -c 300 "$T/err")"
	expect_tree_same
	hp config --validate "$cfg"
	[ "$RC" = 2 ] || fail "$name: config --validate exit $RC, want 2"
	ref_private
	install -m 0644 "$src" "$R/etc/hostprep/hostprep.conf"
	install -m 0644 "$src" "$REF/etc/hostprep/hostprep.conf"
	hp check
	[ "$RC" = 2 ] || fail "$name: check (etc/hostprep/hostprep.conf) exit $RC, want 2"
	grep -q "hostprep\.conf:$line:" "$T/err" || fail "$name: etc: stderr lacks 'hostprep.conf:$line:'"
done
[ $n -ge 12 ] || fail "only $n bad configs"

# Malformed or unsatisfiable [Bond:*] configs (net/bond-bad-configs): exit 2,
# "<file>:<line>:" on stderr, nothing read or written, however the file is given.
n=0
for src in "$HERE"/net/bond-bad-configs/*.conf; do
	n=$((n + 1))
	name=$(basename "$src")
	line=$(sed -n '1s/^# expect-line: \([0-9]*\)$/\1/p' "$src")
	newroot bond-lacp
	cfg=$T/$name
	install -m 0644 "$src" "$cfg"
	hp -v --config "$cfg" check
	[ "$RC" = 2 ] || fail "$name: check --config exit $RC, want 2"
	grep -qF "$cfg:$line:" "$T/err" || fail "$name: stderr lacks '$cfg:$line:': $(head -c 300 "$T/err")"
	grep -q 'unknown section' "$T/err" && fail "$name: [Bond:IFNAME] not recognised as a section"
	[ -s "$T/out" ] && fail "$name: printed results: $(head -c 200 "$T/out")"
	hp config --validate "$cfg"
	[ "$RC" = 2 ] || fail "$name: config --validate exit $RC, want 2"
	ref_private
	install -m 0644 "$src" "$R/etc/hostprep/hostprep.conf"
	install -m 0644 "$src" "$REF/etc/hostprep/hostprep.conf"
	hp -v apply
	[ "$RC" = 2 ] || fail "$name: apply (etc/hostprep/hostprep.conf) exit $RC, want 2"
	grep -q "hostprep\.conf:$line:" "$T/err" || fail "$name: etc: stderr lacks 'hostprep.conf:$line:'"
	expect_tree_same
done
[ $n -ge 16 ] || fail "only $n bad configs"
# Duplicate keys are systemd's: the last wins (not an error), also across drop-ins.
newroot bond-ab
useconf bond-ab
mkdir -p "$R/etc/hostprep/hostprep.conf.d"
printf '[Bond:bond0]\nMinSlavesUp=2\nMinSlavesUp=1\n' >"$R/etc/hostprep/hostprep.conf.d/50-x.conf"
hp -v check
expect_rc 0
expect_grep out '^PASS +bond +bond0 +active-backup, miimon > 0, at least 1 slave up'
hp config
expect_grep out '^MinSlavesUp=1$'
# An empty assignment restores the default (every slave)
printf '[Bond:bond0]\nMinSlavesUp=\n' >"$R/etc/hostprep/hostprep.conf.d/60-y.conf"
hp -v check
expect_rc 1
expect_grep out '^FAIL +bond +bond0 +active-backup, miimon > 0, every slave up'
# RDMA= without Mode= is valid config; the runtime mode decides (balance-rr cannot be LAG)
newroot bond-lacp
printf '[Bond:bond0]\nRDMA=mlx5_bond_0\n' >"$T/rr.conf"
sed -i 's/^802.3ad 4$/balance-rr 0/' "$R/sys/devices/virtual/net/bond0/bonding/mode"
hp -v --config "$T/rr.conf" check
expect_rc 1
expect_grep out '^FAIL +bond\.lag +mlx5_bond_0 .*bond0 is balance-rr: mlx5 RoCE LAG needs active-backup, balance-xor or 802\.3ad'

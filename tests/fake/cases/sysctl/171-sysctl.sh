# [Sysctl]: each Expect= read under <root>/proc/sys and compared like sysctl does (words,
# integers by value); a mismatch fails naming the sysctl.d drop-in line; a missing
# setting fails; bad names are refused at config time (exit 2, file:line); nothing written.
newroot l40-amd
ref_private
for d in "$R" "$REF"; do
	mkdir -p "$d/proc/sys/kernel" "$d/proc/sys/net/ipv4" "$d/proc/sys/vm"
	printf '1\n' >"$d/proc/sys/kernel/numa_balancing"
	printf '4096\t131072\t6291456\n' >"$d/proc/sys/net/ipv4/tcp_rmem"
	printf '0\n' >"$d/proc/sys/vm/zone_reclaim_mode"
	cat >"$d/etc/hostprep/hostprep.conf" <<'EOT'
[Sysctl]
Expect=kernel.numa_balancing=0
Expect=net.ipv4.tcp_rmem = 4096  0131072 6291456
Expect=vm.zone_reclaim_mode=1
Expect=vm.zone_reclaim_mode=00
Expect=kernel.no_such_thing=1
EOT
done
hp --json check
expect_rc 1
jq -r '.results[] | select(.check == "sysctl") | "\(.object) \(.verdict) \(.actual)"' "$T/out" >"$T/got"
cat >"$T/want" <<'EOT'
kernel.numa_balancing fail 1
net.ipv4.tcp_rmem pass 4096 131072 6291456
vm.zone_reclaim_mode pass 0
kernel.no_such_thing fail no such setting in this kernel (or its module is not loaded)
EOT
diff -u "$T/want" "$T/got" >"$T/d" || fail "sysctl results differ: $(cat "$T/d")"
jq -e '.results[] | select(.object == "kernel.numa_balancing") | .remedy | test("'"'"'kernel.numa_balancing = 0'"'"' to /etc/sysctl.d/90-hostprep.conf")' "$T/out" >/dev/null ||
	fail "remedy does not name the drop-in line"
expect_tree_same

# the fixed value passes
printf '0\n' >"$R/proc/sys/kernel/numa_balancing"
hp check
grep -q '^PASS *sysctl *kernel.numa_balancing' "$T/out" || fail "numa_balancing=0 did not pass"

# config-time refusals name the line; nothing is read
for bad in 'kernel/numa_balancing=0' '../../etc/shadow=1' 'kernel..x=1' 'kernel.numa_balancing' \
	'kernel.numa_balancing=' 'kernel.numa balancing=0'; do
	printf '[Sysctl]\nExpect=%s\n' "$bad" >"$R/etc/hostprep/hostprep.conf"
	hp check
	expect_rc 2
	grep -q 'hostprep\.conf:2: Expect=' "$T/err" || fail "'$bad': $(cat "$T/err")"
	grep -q 'sysctl' "$T/out" && fail "'$bad': a sysctl result despite the bad config"
done

# the dump reads back to the same dump
printf '[Sysctl]\nExpect=vm.zone_reclaim_mode=0\nExpect=net.ipv4.tcp_rmem=4096 87380  6291456\n' >"$R/etc/hostprep/hostprep.conf"
hp config
expect_rc 0
cp "$T/out" "$T/dump1"
grep -qx 'Expect=net.ipv4.tcp_rmem=4096 87380 6291456' "$T/dump1" || fail "dump: $(cat "$T/dump1")"
cp "$T/dump1" "$R/etc/hostprep/hostprep.conf"
hp config
sed '/^#/d' "$T/out" >"$T/a"
sed '/^#/d' "$T/dump1" >"$T/b"
cmp -s "$T/a" "$T/b" || fail "the dump does not read back: $(diff "$T/b" "$T/a")"
true

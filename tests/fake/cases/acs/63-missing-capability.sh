# A 64-byte config view says which capability is missing, decided from the process
# (issue 6 item 19): not root -> "needs root (CAP_SYS_ADMIN)"; uid 0 without
# CAP_SYS_ADMIN (a container without SYS_ADMIN) -> says so, no "run as root"; uid 0
# with it -> the kernel itself exposes only 64 bytes.
need_root "to drop CAP_SYS_ADMIN with setpriv"
need_tool setpriv
newroot dgx8-nonroot
useconf gpu-p2p
acs_texts() { jqo '.results[] | select(.check=="acs") | "\(.actual) => \(.remedy)"' >"$T/acs"; }

HP_ENV=(setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin)
hp --json check
expect_rc 1
acs_texts
[ "$(wc -l <"$T/acs")" = 16 ] || fail "want 16 acs results without CAP_SYS_ADMIN"
[ "$(grep -c 'uid 0 but CAP_SYS_ADMIN is not in the effective capability set' "$T/acs")" = 16 ] ||
	fail "uid 0 without CAP_SYS_ADMIN: not every acs result names the missing capability"
expect_no_grep "$T/acs" 'run as root' "uid 0 without CAP_SYS_ADMIN is told to run as root"
hp apply --dry-run
expect_grep out 'unreadable \(needs CAP_SYS_ADMIN: uid 0 without it' "the dry run does not name the capability"

HP_ENV=(setpriv --reuid=65534 --regid=65534 --clear-groups)
hp --json check
expect_rc 1
acs_texts
[ "$(grep -c 'needs root (CAP_SYS_ADMIN) => run as root' "$T/acs")" = 16 ] || fail "non-root: not 'needs root (CAP_SYS_ADMIN)'"

HP_ENV=()
hp --json check
expect_rc 1
acs_texts
[ "$(grep -c 'the kernel exposes only 64 bytes' "$T/acs")" = 16 ] ||
	fail "root with CAP_SYS_ADMIN: a 64-byte view is not blamed on the kernel/device"
expect_no_grep "$T/acs" 'run as root' "root with CAP_SYS_ADMIN is told to run as root"
expect_tree_same

# topology.p2p and `hostprep topology` give the same diagnosis as acs, from the same place
# (issue 20): root with CAP_SYS_ADMIN is never told it needs root.
hp topology
expect_rc 0
expect_grep out 'PIX: unknown: 0000:17:00\.0 ACS cannot be read: the kernel exposes only 64 bytes'
expect_no_grep out 'needs root' "topology tells root with CAP_SYS_ADMIN that it needs root"
printf '[Topology]\nExpectP2P=gpu:gpu\n' >"$T/p2p.conf"
hp -v --config "$T/p2p.conf" check
expect_grep out '^UNKNOWN +topology\.p2p .*ACS cannot be read: the kernel exposes only 64 bytes'
expect_grep out 'check the port with lspci -vv and dmesg'
expect_no_grep out 'Run hostprep check as root'
HP_ENV=(setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin)
hp topology
expect_grep out 'PIX: unknown: 0000:17:00\.0 ACS cannot be read: needs CAP_SYS_ADMIN: uid 0 without it'
HP_ENV=(setpriv --reuid=65534 --regid=65534 --clear-groups)
hp topology
expect_grep out 'PIX: unknown: 0000:17:00\.0 ACS needs root to read'
HP_ENV=()

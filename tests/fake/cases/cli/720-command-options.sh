# Each command owns its options (issue 26): a command's option works before or after the
# command word alike; one of another command's is a usage error that names whose it is,
# said before the usage, and nothing runs; `COMMAND --help` prints that command's own table
# and `--help` every option that `--list-options` (the tables, for the doc tier and the
# bash completion) lists.
newroot dgx8
useconf gpu-p2p
hp --dry-run apply
expect_rc 0
cp "$T/out" "$T/before"
hp apply --dry-run
expect_rc 0
cmp -s "$T/before" "$T/out" || fail "'--dry-run apply' and 'apply --dry-run' print differently"
expect_grep out '0000:15:01\.0.*(0x)?001d.*(0x)?0011' "apply --dry-run prints no plan"
expect_tree_same

# another command's option: exit 2, the reason first, then the usage; nothing written
for args in "status --dry-run" "--dry-run status" "check -o $T/c.tar" "-o $T/c.tar check" \
	"gate --validate x.service" "topology --install" "--uninstall rdma"; do
	# shellcheck disable=SC2086 # words on purpose
	hp $args
	expect_rc 2
	head -1 "$T/err" | grep -Eq -- ' is an option of [a-z, ]+, not of [a-z]+\.$' ||
		fail "'$args': first line '$(head -1 "$T/err")'"
	expect_grep err '^Usage: hostprep' "'$args': no usage after the reason"
	[ -s "$T/out" ] && fail "'$args' printed on stdout: $(head -3 "$T/out")"
done
[ -e "$T/c.tar" ] && fail "check -o wrote a file"
expect_tree_same
hp status --dry-run
expect_grep err '--dry-run is an option of apply, not of status\.'
hp -o "$T/c.tar" check
expect_grep err '-o is an option of snapshot, not of check\.'
hp check --output="$T/c.tar"
expect_grep err '--output is an option of snapshot, not of check\.'

# COMMAND --help: its own table, on stdout, exit 0, before or after
hp apply --help
expect_rc 0
expect_grep out '^ +--dry-run +print the plan' "apply --help: no --dry-run line"
expect_grep out '^ +--publish ' "apply --help: no --publish line"
expect_no_grep out '--oneline|--validate|--output' "apply --help lists another command's"
hp -h snapshot
expect_rc 0
expect_grep out '^ +-o, --output FILE ' "snapshot --help: no -o, --output FILE line"
hp --help status
expect_rc 0
expect_grep out '^ +--oneline ' "status --help: no --oneline line"
expect_no_grep out '--dry-run' "status --help lists apply's --dry-run"

# --help lists every option of every table
hp --list-options
expect_rc 0
cp "$T/out" "$T/listed"
[ "$(wc -l <"$T/listed")" -ge 17 ] || fail "--list-options: only $(wc -l <"$T/listed") lines"
expect_grep "$T/listed" '^snapshot -o --output FILE$' "--list-options: no snapshot -o line"
expect_grep "$T/listed" '^hostprep - --root DIR$' "--list-options: no --root line"
expect_no_grep "$T/listed" 'list-options' "--list-options lists itself"
hp --help
expect_rc 0
while read -r owner short long arg; do
	grep -Eq -- "^ +(-., )?$long( |$)" "$T/out" || fail "--help does not list $long ($owner)"
	[ "$owner" = hostprep ] || grep -A1 -E -- "^ +(-., )?$long( |$)" "$T/out" | tr '\n' ' ' |
		grep -Eq -- "[ ,]${owner}[,:] " || fail "--help does not say $long is $owner's"
done <"$T/listed"

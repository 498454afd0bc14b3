# Issue 25 §7: config --validate-as NAME FILE validates FILE as the installed NAME, the way
# Ansible's template `validate:` hands hostprep its temp file (".../source"). A drop-in
# valid only on top of its old version is refused (exit 2, FILE:line), where the plain
# --validate read it as an extra drop-in "source" after the old one and passed it. The
# name is checked (a plain *.conf name, or hostprep.conf), FILE is one, nothing is written.
newroot dgx8
useconf gpu-p2p
ref_private
for d in "$R" "$REF"; do
	install -d -m 0755 "$d/etc/hostprep/hostprep.conf.d"
	printf '[ACS:nics]\nSelect=0000:17:00.0\n' >"$d/etc/hostprep/hostprep.conf.d/50-site.conf"
done
mkdir -p "$T/tmp"
# the new version drops the Select= (an admin's edit that is valid only over the old one)
printf '[ACS:nics]\nEnabled=yes\n' >"$T/tmp/source"

# 1. the old way: a temp file named "source" is an extra drop-in, read after 50-site.conf
hp config --validate "$T/tmp/source"
expect_rc 0
# 2. as the drop-in it replaces: refused, at the temp file's own line
hp config --validate-as 50-site.conf "$T/tmp/source"
expect_rc 2
expect_grep err "^hostprep: $T/tmp/source:1: \[ACS:nics\] is enabled but no file gives it a Select=" \
	"refused without FILE:line: $(cat "$T/err")"
[ "$(wc -l <"$T/err")" = 1 ] || fail "more than one message: $(cat "$T/err")"
[ -s "$T/out" ] && fail "stdout on a refusal: $(cat "$T/out")"
# 3. a valid new version replaces the old one (its Select= is the only one read)
printf '[ACS:nics]\nSelect=0000:18:00.0\nMask=0000000\n' >"$T/tmp/source"
hp config --validate-as 50-site.conf "$T/tmp/source"
expect_rc 0
[ "$(cat "$T/out")" = "$T/tmp/source: ok as 50-site.conf" ] || fail "ok line: '$(cat "$T/out")'"
# 4. an error in FILE: exit 2 with FILE:line (what the role shows)
printf '[Host]\nAply=yes\n' >"$T/tmp/source"
hp config --validate-as 50-site.conf "$T/tmp/source"
expect_rc 2
expect_grep err "^hostprep: $T/tmp/source:2: unknown key 'Aply' in \[Host\] section" "unknown key not at FILE:2"
# 5. as hostprep.conf: FILE takes /etc's main file's place (gpu-p2p is not read)
printf '[Host]\nApply=bogus\n' >"$T/tmp/source"
hp config --validate-as hostprep.conf "$T/tmp/source"
expect_rc 2
expect_grep err "$T/tmp/source:2: .*invalid boolean 'bogus'" "main-file error not at FILE:2"
printf '[Host]\nApply=no\n' >"$T/tmp/source"
hp config --validate-as hostprep.conf "$T/tmp/source"
expect_rc 0
# 6. usage: each is exit 2 with a reason, nothing validated
for args in "--validate-as 50-site.conf" \
	"--validate-as 50-site.conf $T/tmp/source $T/tmp/source" \
	"--validate-as conf.d/50-site.conf $T/tmp/source" \
	"--validate-as .50-site.conf $T/tmp/source" \
	"--validate-as 50-site $T/tmp/source" \
	"--validate-as .conf $T/tmp/source"; do
	# shellcheck disable=SC2086 # words on purpose
	hp config $args
	expect_rc 2
	expect_grep err 'validate' "no reason for 'config $args': $(cat "$T/err")"
	[ -s "$T/out" ] && fail "stdout for 'config $args': $(cat "$T/out")"
done
hp check --validate-as 50-site.conf
expect_rc 2
expect_tree_same

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The doc tier: the man pages are lint-clean, generated from the current
# scdoc sources, and complete against the program (commands, options, exit
# statuses, environment, journal MESSAGE_IDs) and the config (every [Section]
# and Key= of conf/hostprep.conf and of the parsers in src/); the bash
# completion completes commands, options and rule names from a --config file.
# Usage: tests/doc/run.sh build/hostprep build/man/hostprep.8 build/man/hostprep.conf.5
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(realpath "$1")
shift
pages=("$@")
failed=0 passed=0

fail() {
	echo "doc: FAIL: $*"
	failed=$((failed + 1))
}

ok() {
	passed=$((passed + 1))
}

# The words of section "# TITLE" of an scdoc source, up to the next "# ".
scd_section() {
	awk -v t="# $2" '$0 == t { on = 1; next } /^# / { on = 0 } on' "$1"
}

# --- lint: groff -ww silent; mandoc -Tlint silent but for the two notes
# every scdoc page gets (it emits a .PP after .SH and between .RE/.RS; mandoc
# drops them, the output is unchanged).
lint() {
	local page=$1 out

	out=$(groff -ww -z -man "$page" 2>&1)
	[ -z "$out" ] || fail "groff -ww $page: $out"
	out=$(mandoc -Tlint -W warning "$page" 2>&1 |
		grep -v 'WARNING: skipping paragraph macro: PP \(empty\|after SH\)$')
	[ -z "$out" ] || fail "mandoc -Tlint $page: $out"
	[ -n "$(mandoc -Tutf8 "$page" 2>/dev/null)" ] || fail "mandoc renders nothing for $page"
	ok
}

# The page is what scdoc makes of its source now (no stale or hand-edited roff). The date
# scdoc stamps into .TH is the day the page was built (make rebuilds a page only when its
# source changes): a page built yesterday from today's source is still fresh.
fresh() {
	local page=$1 src=$top/doc/$(basename "$1").scd
	local undate='s/^\(\.TH "[^"]*" "[^"]*"\) "[0-9-]*"/\1/'

	if cmp -s <(scdoc <"$src" | sed "$undate") <(sed "$undate" "$page"); then ok
	else fail "$page is not scdoc < $src"; fi
}

# need FILE SECTION REGEX WHAT: a line of that section of FILE matches REGEX.
need() {
	if scd_section "$1" "$2" | grep -Eq -- "$3"; then ok; else
		fail "$(basename "$1"): $4 is not documented in section '$2'"
	fi
}

re_quote() {
	printf '%s' "$1" | sed 's/[][\.*^$+?(){}|/]/\\&/g'
}

# scdoc 1.11 passes a backslash in a ``` block to roff, which eats it
# (printf '\n' would print "n"): there is no escape, so none may be there.
for s in "$top"/doc/*.scd; do
	bad=$(awk '/^```/ { on = !on; next } on && /\\/ { print FILENAME ":" FNR ": " $0 }' "$s")
	[ -z "$bad" ] && ok || fail "backslash in a literal block: $bad"
done

for p in "${pages[@]}"; do
	lint "$p"
	fresh "$p"
done

man8=$top/doc/hostprep.8.scd
man5=$top/doc/hostprep.conf.5.scd
main=$top/src/main.c
# a source file by its name, wherever in src/ it lives
src_file() { find "$top/src" -name "$1" -print -quit; }

# --- hostprep(8) against the commands, src/main.c, src/core/result.h, src/report/sinks.h, getenv()s
# every command defined in src/ ("const struct command VAR = { .name = "NAME", ..."),
# and each of them in the one table, commands[] in src/modules.c
cmd_defs=$(awk '/^const struct command [a-z_]+ = \{/ { var = $4; on = 1 }
	on && match($0, /\.name = "[a-z]+"/) { print var, substr($0, RSTART + 9, RLENGTH - 10); on = 0 }' \
	"$top"/src/*.c "$top"/src/*/*.c)
commands=$(echo "$cmd_defs" | awk '{ print $2 }')
[ "$(echo "$commands" | wc -w)" -ge 8 ] || fail "found only '$commands' as commands in src/"
while read -r var name; do
	grep -Eq "&$var([^a-z_]|\$)" "$top/src/modules.c" && ok ||
		fail "command '$name' ($var) is not in commands[] in src/modules.c"
done <<<"$cmd_defs"
for c in $commands; do
	need "$man8" COMMANDS "^\*$c[* ]" "command '$c'"
done
# every option of every table (hostprep's own in src/cli/argv.c, each command's in its
# struct command), as the program lists them: "OWNER SHORT LONG ARG", "-" for none
listed=$("$bin" --list-options) || fail "$bin --list-options failed"
longopts=$(echo "$listed" | awk '{ print substr($3, 3) }')
[ "$(echo "$longopts" | wc -w)" -ge 15 ] || fail "found only '$longopts' in --list-options"
for o in $longopts; do
	need "$man8" OPTIONS "^(\*-[a-z]\*, )?\*--$o\*" "option --$o"
done
for o in $(echo "$listed" | awk '$2 != "-" { print substr($2, 2) }'); do
	need "$man8" OPTIONS "^\*-$o\*" "option -$o"
done
# a command's option is in that command's line of the synopsis
while read -r owner short long arg; do
	[ "$owner" = hostprep ] && continue
	need "$man8" SYNOPSIS "^\*hostprep\* \[_OPTIONS_\] \*$owner[* ].*\*($long|$short)\*" \
		"option $long of $owner (in its synopsis line)"
done <<<"$listed"
codes=$(sed -n 's/^#define EXIT_[A-Z_]*[[:space:]]*\([0-9]*\)$/\1/p' "$(src_file result.h)")
[ -n "$codes" ] || fail "no EXIT_ codes found in src/core/result.h"
for e in $codes; do
	need "$man8" "EXIT STATUS" "^\*$e\*$" "exit status $e"
done
ids=$(sed -n 's/^#define HOSTPREP_[A-Z]*_MESSAGE_ID[[:space:]]*"\([0-9a-f]*\)"$/\1/p' "$(src_file sinks.h)")
[ "$(echo "$ids" | wc -w)" -eq 2 ] || fail "expected two MESSAGE_IDs in src/report/sinks.h, found '$ids'"
for id in $ids; do
	need "$man8" "REPORT AND JOURNAL" "^\*$id\*$" "MESSAGE_ID $id"
done
envs=$(grep -rhoE 'getenv\("[A-Z_]+"\)' "$top/src" | sed 's/getenv("\(.*\)")/\1/' | sort -u)
for v in $envs DBUS_SYSTEM_BUS_ADDRESS; do
	need "$man8" ENVIRONMENT "^\*$v\*$" "environment variable $v"
done
for f in /run/hostprep/report.json /run/hostprep/acs-originals /run/hostprep/rdma.env \
	/etc/modprobe.d/hostprep.conf /var/lib/hostprep/originals /etc/hostprep/hostprep.conf; do
	need "$man8" FILES "^_$(re_quote "$f")_" "file $f"
done

# --- hostprep.conf(5) against conf/hostprep.conf and the parsers in src/
sections=$(sed -n 's/^#\{0,1\}[[:space:]]*\[\([A-Za-z]*\)\(:[^]]*\)\{0,1\}\].*/\1\2/p' \
	"$top/conf/hostprep.conf" | sed 's/:.*/:/' | sort -u)
[ "$(echo "$sections" | wc -w)" -ge 7 ] || fail "found only '$sections' in conf/hostprep.conf"
for s in $sections; do
	grep -Eq "^# \[$(re_quote "$s")" "$man5" && ok || fail "hostprep.conf.5: no section [$s...]"
done
keys=$( (sed -n 's/^#\{0,1\}[[:space:]]*\([A-Z][A-Za-z0-9]*\)=.*/\1/p' "$top/conf/hostprep.conf"
	grep -hoE 'streq\(key, "[A-Z][A-Za-z0-9]*"\)|CONFIG_ITEM[A-Z_]*\("[A-Z][A-Za-z0-9]*"' \
		"$(src_file config.c)" "$top"/src/*/*-config.c |
		sed 's/.*"\(.*\)".*/\1/') | sort -u)
[ "$(echo "$keys" | wc -w)" -ge 25 ] || fail "found only $(echo "$keys" | wc -w) keys"
for k in $keys; do
	grep -Eq "^\*$k=\*" "$man5" && ok || fail "hostprep.conf.5: key $k= is not documented"
done

# --- bash completion, driven as readline would: COMP_WORDS/COMP_CWORD in,
# COMPREPLY out, in a bash that has nothing but the script.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/rootdir" "$tmp/rootdir2"
printf '[ACS:mine]\nSelect=3a:00.0\n[Port:rails]\nSelect=mlx5_*\n[Module:mlx5_core]\n' >"$tmp/site.conf"

# complete LINE: the sorted COMPREPLY for the cursor at the end of LINE.
complete_line() {
	(cd "$tmp" && bash --norc --noprofile -c '
		source "$1"; shift
		read -ra COMP_WORDS <<<"${1//=/ = }"
		[[ $1 == *" " ]] && COMP_WORDS+=("")
		COMP_WORDS[0]=$2
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		if [[ $3 == rules ]]; then _hostprep_rules; else
			_hostprep; [[ ${#COMPREPLY[@]} -eq 0 ]] || printf "%s\n" "${COMPREPLY[@]}"; fi' \
		_ "$top/completion/hostprep.bash" "$1" "$bin" "${2:-}" | sort | tr '\n' ' ')
}

expect() {
	local got

	got=$(complete_line "$1" "${3:-}")
	if [ "$got" = "$2" ]; then ok; else fail "completion of '$1': got '$got', want '$2'"; fi
}

want_cmds=$(echo "$commands" | sort | tr '\n' ' ')
# the options a command offers: hostprep's own and its table's, from --list-options
want_opts() {
	echo "$listed" | awk -v c="$1" -v p="$2" '$1 == "hostprep" || $1 == c {
		if ($2 != "-") print $2; print $3 }' | grep -- "^$2" | sort | tr '\n' ' '
}
want_long=$(want_opts "" --)
expect "hostprep " "$want_cmds"
expect "hostprep --json " "$want_cmds"
expect "hostprep --" "$want_long"
expect "hostprep --root rootdir --config site.conf " "$want_cmds"
expect "hostprep --root root" "rootdir rootdir2 "
expect "hostprep --root=root" "rootdir rootdir2 "
expect "hostprep --config sit" "site.conf "
expect "hostprep apply --d" "--dry-run "
expect "hostprep config --v" "--validate --validate-as --vendor-config --verbose --version "
expect "hostprep config --validate sit" "site.conf "
expect "hostprep config --validate-as " ""
expect "hostprep config --validate-as 50-site.conf sit" "site.conf "
expect "hostprep acs " "cmdline "
expect "hostprep acs cmdline " ""
expect "hostprep acs cmdline --in" "--install "
expect "hostprep acs cmdline --u" "--uninstall "
expect "hostprep status " ""
expect "hostprep status --o" "--oneline "
expect "hostprep snapshot --o" "--output "
expect "hostprep check --p" "--publish "
expect "hostprep apply --p" "--publish "
expect "hostprep --config site.conf check --pu" "--publish "
expect "hostprep --vendor-config sit" "site.conf "
expect "hostprep -o sit" "site.conf "
expect "hostprep --validate-as site.conf config sit" "site.conf "
for c in $commands; do
	expect "hostprep $c -" "$(want_opts "$c" -)"
	expect "hostprep -v $c --" "$(want_opts "$c" --)"
done
expect "hostprep --config $top/conf/hostprep.conf --config site.conf check " \
	"ACS:gpu-paths ACS:mine Module:mlx5_core Port:rails " rules
expect "hostprep --config $top/conf/hostprep.conf check " "ACS:gpu-paths " rules

# --- zsh completion: parses, and offers exactly the program's commands.
if zsh -n "$top/completion/_hostprep"; then ok; else fail "zsh -n completion/_hostprep"; fi
got=$(sed -n "s/^[[:space:]]*'\([a-z]*\):.*/\1/p" "$top/completion/_hostprep" | sort | tr '\n' ' ')
[ "$got" = "$want_cmds" ] && ok || fail "completion/_hostprep commands '$got', want '$want_cmds'"
# and each table's options, as zsh gets them when completing: the file reads them from
# the program at completion time, so drive it with _arguments stubbed to print its
# specs (the first call's for hostprep's own; for a command, the call after it), no more,
# no less
zsh_opts() {
	(cd "$tmp" && CMD=$1 zsh -f -c '
		_describe() { return 1 }
		_arguments() {
			if [[ $1 == -C && -n $CMD ]]; then
				state=argument line=($CMD)
				return 0
			fi
			print -rl -- "$@"
		}
		words=("$2")
		source "$1"' _ "$top/completion/_hostprep" "$bin") |
		sed 's/\[[^]]*\]//g' | grep -oE -- "(^|[^a-z-])--?[a-z][a-z-]*" | grep -oE -- "--?[a-z][a-z-]*" | sort -u | tr '\n' ' '
}
for c in "" $commands; do
	want=$(echo "$listed" | awk -v c="${c:-hostprep}" '$1 == c { if ($2 != "-") print $2; print $3 }' |
		sort -u | tr '\n' ' ')
	got=$(zsh_opts "$c")
	[ "$got" = "$want" ] && ok || fail "completion/_hostprep options of '${c:-hostprep}': '$got', want '$want'"
done

# --- the house drawn from the includes: no arrow up, no folder cycle (tests/doc/layers.py);
# and the drawing can fail: an upward include and a cycle put into a copy of src/.
if out=$(python3 "$top/tests/doc/layers.py" "$top/src"); then ok; else fail "$out"; fi
house=$(mktemp -d)
cp -r "$top/src" "$house/src"
printf '#include "run/run.h"\n' >>"$house/src/core/strbuf.h"
out=$(python3 "$top/tests/doc/layers.py" "$house/src")
case $out in *'core/strbuf.h'*'an arrow up, core -> run'*) ok ;;
*) fail "layers.py does not see core/ include run/: $out" ;; esac
cp "$top/src/core/strbuf.h" "$house/src/core/strbuf.h"
printf '#include "acs/plan.h"\n' >>"$house/src/topo/topo.h"
out=$(python3 "$top/tests/doc/layers.py" "$house/src")
case $out in *'a folder cycle: acs <-> topo'*) ok ;;
*) fail "layers.py does not see the cycle acs <-> topo: $out" ;; esac
rm -rf "$house"

# --- the result model: every result that may not pass names its action, and
# docs/report-schema.md documents every action and severity the program writes.
if out=$(python3 "$top/tests/doc/result-actions.py" "$top"); then ok; else fail "$out"; fi
for name in $(grep -o '\[\(ACTION\|SEVERITY\)_[A-Z_]*\] = "[a-z-]*"' "$top/src/core/result.c" |
	sed 's/.*= "\(.*\)"/\1/'); do
	grep -q "^| \`$name\` |" "$top/docs/report-schema.md" && ok ||
		fail "docs/report-schema.md does not document action/severity '$name'"
done

echo "doc: $passed passed, $failed failed"
if [ $failed -eq 0 ] && [ $passed -eq 0 ]; then
	echo "doc: FAILED: no check passed: nothing was checked"
	exit 1
fi
[ "$failed" -eq 0 ]

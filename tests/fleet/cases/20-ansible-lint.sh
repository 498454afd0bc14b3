#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fleet/ansible lint-clean with Debian 12's tools: yamllint in strict mode
# (its default rules, warnings fail too), ansible-lint --offline (production
# profile: 0 failures, 0 warnings), ansible-playbook --syntax-check of the
# example playbook with the role; every shell script under fleet/ passes sh -n
# (and shellcheck when installed). Each linter is also run once on a copy of
# the role with a known defect and must fail it (a lint that cannot fail is no
# test). tests/vm 71 runs the role for real.
#
# Prints ok/fail/skip lines; exits 1 on any fail.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../../.." && pwd)
SRC=$TOP/fleet/ansible
T=$(mktemp -d "${TMPDIR:-/tmp}/fleet-lint.XXXXXX")
trap 'rm -rf "$T"' EXIT
FAILS=0
ok() { echo "ok $1"; }
fail() {
	echo "fail $1: $2"
	FAILS=$((FAILS + 1))
}
skip() { echo "skip $1: $2"; }
# the linters write caches under HOME: a private one, nothing left behind
export HOME=$T/home ANSIBLE_LOCAL_TEMP=$T/ansible-tmp ANSIBLE_NOCOLOR=1 NO_COLOR=1
mkdir -p "$HOME"

# a copy (the linters may create .ansible/ or .cache/ where they run), and a
# broken copy: a command without changed_when (ansible-lint no-changed-when),
# a line of 100 characters with trailing spaces (yamllint line-length,
# trailing-spaces), a YAML key error in the play (syntax check)
cp -a "$SRC" "$T/good"
cp -a "$SRC" "$T/bad"
cat >>"$T/bad/roles/hostprep/tasks/main.yml" <<'EOF'

- name: A defect the linters must see
  ansible.builtin.command: hostprep apply
  # ------------------------------------------------------------------------------------   
EOF
printf '    bad_indent: [\n' >>"$T/bad/playbook.yml"

# run NAME DIR CMD...: CMD in DIR; sets $RC, $LOG
run() {
	local dir=$2
	shift 2
	LOG=$(cd "$dir" && "$@" 2>&1)
	RC=$?
}

if command -v yamllint >/dev/null 2>&1; then
	run yamllint "$T/good" yamllint --strict .
	[ $RC -eq 0 ] && ok "yamllint --strict fleet/ansible" || fail "yamllint --strict fleet/ansible" "$LOG"
	run yamllint "$T/bad" yamllint --strict roles
	[ $RC -ne 0 ] && grep -q 'line-length' <<<"$LOG" && grep -q 'trailing-spaces' <<<"$LOG" &&
		ok "yamllint fails the broken copy (line-length, trailing-spaces)" ||
		fail "yamllint fails the broken copy" "exit $RC: $LOG"
else
	skip "yamllint" "not installed (tests/deps.sh fleet)"
fi

if command -v ansible-lint >/dev/null 2>&1; then
	run ansible-lint "$T/good" ansible-lint --offline --nocolor
	if [ $RC -eq 0 ] && ! grep -qE '[1-9][0-9]* (failure|warning)' <<<"$LOG"; then
		ok "ansible-lint --offline fleet/ansible ($(ansible-lint --version 2>/dev/null | head -n1 | cut -d' ' -f1-2))"
	else fail "ansible-lint --offline fleet/ansible" "exit $RC: $LOG"; fi
	rm -f "$T/bad/playbook.yml" # its YAML error would stop ansible-lint before the rules run
	run ansible-lint "$T/bad" ansible-lint --offline --nocolor
	[ $RC -ne 0 ] && grep -q 'no-changed-when' <<<"$LOG" &&
		ok "ansible-lint fails the broken copy (no-changed-when)" ||
		fail "ansible-lint fails the broken copy" "exit $RC: $LOG"
	cp "$SRC/playbook.yml" "$T/bad/playbook.yml" && printf '    bad_indent: [\n' >>"$T/bad/playbook.yml"
else
	skip "ansible-lint" "not installed (tests/deps.sh fleet)"
fi

if command -v ansible-playbook >/dev/null 2>&1; then
	run syntax "$T/good" env ANSIBLE_ROLES_PATH=roles ansible-playbook -i localhost, --syntax-check playbook.yml
	[ $RC -eq 0 ] && ok "ansible-playbook --syntax-check playbook.yml" ||
		fail "ansible-playbook --syntax-check playbook.yml" "$LOG"
	run syntax "$T/bad" env ANSIBLE_ROLES_PATH=roles ansible-playbook -i localhost, --syntax-check playbook.yml
	[ $RC -ne 0 ] && ok "ansible-playbook --syntax-check fails the broken copy" ||
		fail "ansible-playbook --syntax-check fails the broken copy" "exit 0: $LOG"
else
	skip "ansible-playbook --syntax-check" "ansible-core not installed (tests/deps.sh fleet)"
fi

# every shell script under fleet/ (by its #! line)
n=0
while IFS= read -r -d '' f; do
	case $(head -n1 "$f") in
	'#!/bin/sh'*) sh=sh ;;
	'#!/bin/bash'* | '#!/usr/bin/env bash'*) sh=bash ;;
	*) continue ;;
	esac
	n=$((n + 1))
	rel=${f#"$TOP"/}
	if o=$($sh -n "$f" 2>&1); then ok "$sh -n $rel"; else fail "$sh -n $rel" "$o"; fi
	if command -v shellcheck >/dev/null 2>&1; then
		if o=$(shellcheck -s "$sh" "$f" 2>&1); then ok "shellcheck $rel"; else fail "shellcheck $rel" "$o"; fi
	else skip "shellcheck $rel" "shellcheck not installed"; fi
done < <(find "$TOP/fleet" -type f -print0 | sort -z)
[ $n -gt 0 ] || fail "shell scripts under fleet/" "none found (the Slurm wrapper at least)"

[ $FAILS -eq 0 ]

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The role's drop-in task, run by Debian 12's ansible-playbook (local connection),
# validates what goes live as what it replaces (issue 25 §7). The task is taken from
# fleet/ansible/roles/hostprep/tasks/main.yml as it is (its template, its validate:
# line); the drop-in directory is a fake root's and `hostprep` on PATH is the built
# binary with --root on it. Ansible renders into a temp file named ".../source" and
# runs the validate command on it:
# - a new 50-site.conf that is valid only on top of its old version (its rule's Select=
#   was in the old one) is refused with hostprep's FILE:line reason; the live file is
#   byte-identical and no stray file is left;
# - a new version that is valid alone goes live;
# - the proof the check can fail: the same task with the old 'hostprep config
#   --validate %s' lets the bad version go live (then the host's every run exits 2).
# Prints ok/fail/skip lines; exits 1 on any fail.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../../.." && pwd)
. "$HERE/../lib.sh"
HOSTPREP_BIN=${HOSTPREP_BIN:-$TOP/build/hostprep}
ROLE=$TOP/fleet/ansible/roles/hostprep
T=$(mktemp -d "${TMPDIR:-/tmp}/fleet-validate.XXXXXX")
trap 'rm -rf "$T"' EXIT
export HOME=$T/home ANSIBLE_LOCAL_TEMP=$T/ansible-tmp ANSIBLE_REMOTE_TEMP=$T/ansible-tmp \
	ANSIBLE_NOCOLOR=1 NO_COLOR=1 ANSIBLE_LOCALHOST_WARNING=0 \
	ANSIBLE_INVENTORY_UNPARSED_WARNING=0 ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3
mkdir -p "$HOME"

need ansible-playbook "role validate" || finish
if [ ! -x "$HOSTPREP_BIN" ]; then
	skip "role validate" "$HOSTPREP_BIN not built (make)"
	finish
fi
python3 -c 'import yaml' 2>/dev/null || {
	fail "role validate" "python3-yaml missing (tests/deps.sh fleet)"
	finish
}

R=$T/root D=$T/root/etc/hostprep/hostprep.conf.d
mkdir -p "$D" "$T/bin" "$T/play/templates"
printf '#!/bin/sh\nexec "%s" --root "%s" "$@"\n' "$HOSTPREP_BIN" "$R" >"$T/bin/hostprep"
chmod 755 "$T/bin/hostprep"
cp "$ROLE/templates/dropin.conf.j2" "$T/play/templates/"
OLD='[ACS:nics]
Select=0000:00:02.0'
printf '# Ansible managed\n%s\n' "$OLD" >"$D/50-site.conf"

# play NAME CONTENT [VALIDATE]: a playbook with the role's task as it is (owner and
# group dropped when not root), hostprep_dropin_dir in the fake root, one drop-in
# 50-site.conf; VALIDATE replaces the task's validate: line (the proof run)
play() {
	python3 - "$ROLE/tasks/main.yml" "$T/play/$1.yml" "$D" "$2" "${3:-}" "$(id -u)" <<'PY'
import sys, yaml
tasks, out, d, content, validate, uid = sys.argv[1:]
def flat(ts):  # the role's tasks, those inside its blocks too
    for t in ts:
        yield t
        yield from flat(t.get("block", []))
task = next(t for t in flat(yaml.safe_load(open(tasks))) if t.get("name", "").startswith("Place the site drop-ins"))
tpl = task["ansible.builtin.template"]
if uid != "0":
    tpl.pop("owner", None), tpl.pop("group", None)
if validate:
    tpl["validate"] = validate
task.pop("notify", None)
play = [{"name": "the role's drop-in task", "hosts": "localhost", "gather_facts": False,
         "vars": {"hostprep_dropin_dir": d,
                  "hostprep_dropins": [{"name": "50-site.conf", "content": content}]},
         "tasks": [task]}]
yaml.safe_dump(play, open(out, "w"), sort_keys=False)
PY
	LOG=$(cd "$T/play" && PATH=$T/bin:$PATH ansible-playbook -i localhost, -c local "$1.yml" 2>&1)
	RC=$?
}
sha() { sha256sum "$1" | cut -c1-64; }

grep -q 'validate: hostprep config --validate-as {{ item.name }} %s$' "$ROLE/tasks/main.yml" &&
	ok "the role validates each drop-in as its own name" ||
	fail "the role validates each drop-in as its own name" "$(grep -n 'validate:' "$ROLE/tasks/main.yml")"

before=$(sha "$D/50-site.conf")
BAD='[ACS:nics]
Enabled=yes'
play bad "$BAD"
if [ $RC -ne 0 ] && grep -q 'failed=1' <<<"$LOG" &&
	grep -q '/source:2: \[ACS:nics\] is enabled but no file gives it a Select=' <<<"$LOG"; then
	ok "a drop-in valid only over its old version: refused with hostprep's FILE:line"
else fail "a drop-in valid only over its old version: refused" "exit $RC: $LOG"; fi
[ "$(sha "$D/50-site.conf")" = "$before" ] && [ "$(ls -A "$D")" = 50-site.conf ] &&
	ok "refused: the live drop-in unchanged, no stray file" ||
	fail "refused: the live drop-in unchanged, no stray file" "$(ls -A "$D"; cat "$D/50-site.conf")"

GOOD='[ACS:nics]
Select=0000:00:03.0'
play good "$GOOD"
if [ $RC -eq 0 ] && grep -q 'changed=1' <<<"$LOG" && grep -q '^Select=0000:00:03.0$' "$D/50-site.conf"; then
	ok "a drop-in valid alone goes live"
else fail "a drop-in valid alone goes live" "exit $RC: $(cat "$D/50-site.conf") $LOG"; fi

# the proof: the old validate line lets the bad version go live over the good one
play old "$BAD" 'hostprep config --validate %s'
if [ $RC -eq 0 ] && grep -q '^Enabled=yes$' "$D/50-site.conf"; then
	if "$T/bin/hostprep" config >/dev/null 2>&1; then
		fail "the old validate line lets it through" "the config loads: not the case the test is about"
	else ok "proof: the old 'config --validate %s' lets that drop-in go live (the config no longer loads)"; fi
else fail "proof: the old validate line lets the bad drop-in through" "exit $RC: $LOG"; fi
finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The role and the playbook as a roll-out runs them, with Debian 12's ansible-playbook
# (local connection) on a fake host (tests/fake/mkroot.py dgx8 with the shipped default
# config as its vendor file; `hostprep` on PATH is the built binary with --root on it).
# The role is fleet/ansible/roles/hostprep as it is, less the tasks that need a real host
# (package install, the installed-binary check, systemctl enable):
# - check mode previews the plan with this run's drop-ins rendered: a new drop-in
#   [Host] Apply=yes makes the 12 planned ACS writes count (the installed configuration
#   alone plans them but, Apply=no, would not write), a masked vendor drop-in stays out,
#   a retired one is taken out; nothing is written, no temporary file is left;
# - all or none: one invalid drop-in of two, neither goes live, no apply is marked;
# - a run that fails after placing a drop-in (a task in between fails, so the handler
#   never runs) leaves the apply marked; the next run, with nothing left to change,
#   applies (the report says apply) and clears the mark; a third run changes nothing.
#   The proof: without the mark the second run does not apply;
# - the playbook's play header (serial: canary 1, then 10%, 25%; max_fail_percentage: 0)
#   stops the roll-out after a failing canary: no other host runs.
# Prints ok/fail/skip lines; exits 1 on any fail.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../../.." && pwd)
. "$HERE/../lib.sh"
HOSTPREP_BIN=${HOSTPREP_BIN:-$TOP/build/hostprep}
SRC=$TOP/fleet/ansible
T=$(mktemp -d "${TMPDIR:-/tmp}/fleet-rollout.XXXXXX")
trap 'rm -rf "$T"' EXIT
export HOME=$T/home ANSIBLE_LOCAL_TEMP=$T/ansible-tmp ANSIBLE_REMOTE_TEMP=$T/ansible-tmp \
	ANSIBLE_NOCOLOR=1 NO_COLOR=1 ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_RETRY_FILES_ENABLED=0 \
	ANSIBLE_INVENTORY_UNPARSED_WARNING=0 ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3 \
	ANSIBLE_STDOUT_CALLBACK=default ANSIBLE_DISPLAY_OK_HOSTS=1 TMPDIR=$T/tmp
mkdir -p "$HOME" "$T/tmp"
check_eq() { if [ "$1" = "$2" ]; then ok "$3"; else fail "$3" "got '$1', want '$2'"; fi; }

need ansible-playbook "ansible roll-out" || finish
need jq "ansible roll-out" || finish
if [ ! -x "$HOSTPREP_BIN" ]; then
	skip "ansible roll-out" "$HOSTPREP_BIN not built (make)"
	finish
fi

R=$T/root
D=$R/etc/hostprep/hostprep.conf.d
python3 "$TOP/tests/fake/mkroot.py" dgx8 "$R" >/dev/null || { fail "ansible roll-out" "mkroot dgx8"; finish; }
mkdir -p "$R/usr/lib/hostprep/hostprep.conf.d" "$D" "$T/bin"
cp "$TOP/conf/hostprep.conf" "$R/usr/lib/hostprep/hostprep.conf"
printf '#!/bin/sh\nexec "%s" --root "%s" "$@"\n' "$HOSTPREP_BIN" "$R" >"$T/bin/hostprep"
chmod 755 "$T/bin/hostprep"

# role VARIANT [DROP_TASK] [FAIL]: the role copied to $T/VARIANT/roles/hostprep less the
# tasks that need a real host and less DROP_TASK (a task name: the proof); with FAIL, a
# task that fails right after the role's drop-in tasks, before its handlers run (as any
# later task of the role, the connection or the controller can)
role() {
	mkdir -p "$T/$1/roles"
	cp -a "$SRC/roles/hostprep" "$T/$1/roles/"
	python3 - "$T/$1/roles/hostprep/tasks/main.yml" "${2:-}" "${3:-}" "$(id -u)" <<'PY'
import sys, yaml
path, drop, fail, uid = sys.argv[1:]
skip = ("Install hostprep", "Look for the installed hostprep", "Stop here", "Enable hostprep.service")
def keep(t):
    return not t.get("name", "").startswith(skip) and t.get("name") != drop
def strip(t):
    for v in t.values():
        if isinstance(v, dict) and uid != "0":
            v.pop("owner", None), v.pop("group", None)
    for k in ("block", "always", "rescue"):
        if k in t:
            t[k] = [strip(x) for x in t[k] if keep(x)]
    return t
tasks = [strip(t) for t in yaml.safe_load(open(path)) if keep(t)]
if fail:
    i = next(i for i, t in enumerate(tasks) if t.get("name", "").startswith("Render, validate, place"))
    tasks.insert(i + 1, {"name": "a task that fails after the drop-ins", "ansible.builtin.fail": {"msg": "boom"}})
yaml.safe_dump(tasks, open(path, "w"), sort_keys=False)
PY
}
# play VARIANT NAME VARS_JSON [ANSIBLE_ARGS...]: a playbook with the role on localhost.
# Sets RC and LOG.
play() {
	local v=$1 name=$2 vars=$3
	shift 3
	python3 - "$T/$v/$name.yml" "$vars" "$R" "$D" "$T/state" <<'PY'
import json, sys, yaml
out, vars_, root, d, state = sys.argv[1:]
v = {"hostprep_config_root": root, "hostprep_dropin_dir": d, "hostprep_state_dir": state}
v.update(json.loads(vars_))
p = {"name": "roll-out", "hosts": "localhost", "gather_facts": False, "vars": v,
     "roles": [{"role": "hostprep"}]}
yaml.safe_dump([p], open(out, "w"), sort_keys=False)
PY
	LOG=$(cd "$T/$v" && PATH=$T/bin:$PATH ANSIBLE_ROLES_PATH=roles ansible-playbook -i localhost, -c local "$@" "$name.yml" 2>&1)
	RC=$?
}
recap() { grep -o 'ok=[0-9]* *changed=[0-9]* *unreachable=[0-9]* *failed=[0-9]*' <<<"$LOG" | tr -s ' '; }
report_cmd() { jq -r '.command + " " + .time' "$R/run/hostprep/report.json" 2>/dev/null || echo none; }

role good
SITE='{"hostprep_dropins": [{"name": "50-site.conf", "content": "[Host]\nApply=yes\n"}]'

# --- check mode: the preview with the new drop-ins ---
# a vendor drop-in that would turn Apply off again, masked in /etc; a retired /etc one too
printf '[Host]\nApply=no\n' >"$R/usr/lib/hostprep/hostprep.conf.d/60-vendor.conf"
ln -s /dev/null "$D/60-vendor.conf"
printf '# Ansible managed\n[Host]\nApply=no\n' >"$D/70-old.conf"
play good check "$SITE"', "hostprep_dropins_absent": ["70-old.conf"]}' --check --diff -e hostprep_require_ready=false
if [ $RC -eq 0 ] && grep -q '"config: '"$R"'/usr/lib/hostprep/hostprep.conf [^ "]*/50-site.conf"' <<<"$LOG"; then
	ok "check mode: the preview reads the vendor file and the rendered 50-site.conf (not the masked or the retired one)"
else fail "check mode: the preview's configuration" "exit $RC: $LOG"; fi
if grep -q '"plan: 12 ports selected: 12 with ACS; 12 writes"' <<<"$LOG" &&
	grep -q 'TASK \[hostprep : Report what an apply would change\] \*\+$' <<<"$LOG" &&
	grep -A1 'Report what an apply would change' <<<"$LOG" | grep -q '^changed:'; then
	ok "check mode: the plan with Apply=yes from the new drop-in: 12 writes, reported as a change"
else fail "check mode: the plan with the new drop-in" "$(grep -A12 'Report what an apply' <<<"$LOG")"; fi
[ ! -e "$D/50-site.conf" ] && [ -e "$D/70-old.conf" ] && [ ! -e "$T/state" ] &&
	[ -z "$(ls -A "$T/tmp" | grep hostprep-dropins)" ] &&
	ok "check mode: nothing placed, removed or marked; the rendered copies are gone" ||
	fail "check mode: nothing written" "$(ls -la "$D" "$T/tmp" "$T/state" 2>&1)"
rm -f "$D/60-vendor.conf" "$D/70-old.conf" "$R/usr/lib/hostprep/hostprep.conf.d/60-vendor.conf"

# --- all or none ---
play good allornone '{"hostprep_require_ready": false, "hostprep_dropins": [{"name": "50-site.conf", "content": "[Host]\nApply=yes\n"}, {"name": "60-bad.conf", "content": "[Host]\nNoSuchKey=1\n"}]}'
if [ $RC -ne 0 ] && grep -q '60-bad.conf:[0-9]*:' <<<"$LOG" && [ -z "$(ls -A "$D")" ] && [ ! -e "$T/state/apply-pending" ]; then
	ok "one invalid drop-in of two: neither goes live, no apply marked"
else fail "one invalid drop-in of two" "exit $RC, $(ls -A "$D"): $LOG"; fi

# --- a run that fails between placing and the handler's apply ---
role failing "" fail
play failing run1 "$SITE"', "hostprep_require_ready": false}'
if [ $RC -ne 0 ] && [ -e "$D/50-site.conf" ] && [ -e "$T/state/apply-pending" ] && [ "$(report_cmd)" = none ]; then
	ok "run 1 fails after placing 50-site.conf: no apply ran, the apply is marked due"
else fail "run 1: placed, failed, marked" "exit $RC, report $(report_cmd), $(ls "$T/state" 2>&1): $LOG"; fi
play good run2 "$SITE"', "hostprep_require_ready": false}'
if [ $RC -eq 0 ] && [ "$(report_cmd | cut -d' ' -f1)" = apply ] && [ ! -e "$T/state/apply-pending" ]; then
	ok "run 2, nothing left to change: applies what run 1 placed (report: apply), the mark cleared"
else fail "run 2 applies what run 1 placed" "exit $RC, report $(report_cmd), $(ls "$T/state" 2>&1): $LOG"; fi
before=$(report_cmd)
sleep 1
play good run3 "$SITE"', "hostprep_require_ready": false}'
check_eq "$RC $(recap | sed 's/ok=[0-9]* //') $(report_cmd)" "0 changed=0 unreachable=0 failed=0 $before" \
	"run 3: changed=0, no apply"
# the proof: the same two runs without the mark lose the apply
rm -f "$D/50-site.conf" "$R/run/hostprep/report.json"
role nomark-failing "Record that an apply is due (before any drop-in changes)" fail
role nomark "Record that an apply is due (before any drop-in changes)"
play nomark-failing run1 "$SITE"', "hostprep_require_ready": false}'
play nomark run2 "$SITE"', "hostprep_require_ready": false}'
if [ -e "$D/50-site.conf" ] && [ "$(report_cmd)" = none ]; then
	ok "proof: without the mark, run 2 does not apply what run 1 placed"
else fail "proof: without the mark the apply is lost" "report $(report_cmd): $LOG"; fi

# --- the playbook's roll-out: a failing canary stops the others ---
python3 - "$SRC/playbook.yml" "$T/serial.yml" <<'PY'
import sys, yaml
p = yaml.safe_load(open(sys.argv[1]))[0]
assert p["serial"][0] == 1 and p["max_fail_percentage"] == 0 and p["vars"]["hostprep_require_ready"] is True, p
p.pop("roles"), p.pop("post_tasks", None), p.pop("become", None)
p["hosts"] = "all"
p["tasks"] = [{"name": "the canary fails", "ansible.builtin.fail": {"msg": "canary"},
               "when": "inventory_hostname == 'h01'"},
              {"name": "ran", "ansible.builtin.debug": {"msg": "ran"}}]
yaml.safe_dump([p], open(sys.argv[2], "w"), sort_keys=False)
PY
[ $? -eq 0 ] && ok "playbook: serial starts with a canary of 1, max_fail_percentage 0, require ready" ||
	fail "playbook: serial, canary" "$(sed -n '1,40p' "$SRC/playbook.yml")"
hosts=$(printf 'h%02d,' $(seq 1 8))
LOG=$(cd "$T" && ansible-playbook -i "$hosts" -c local serial.yml 2>&1)
ran=$(grep -c '^ok: \[h[0-9]*\] => {$' <<<"$LOG")
if [ $? -ne 0 ] || grep -q 'fatal: \[h01\]' <<<"$LOG" && [ "$ran" = 0 ] && ! grep -q 'h02' <<<"$LOG"; then
	ok "playbook: a failing canary stops the roll-out (no other host runs)"
else fail "playbook: a failing canary stops the roll-out" "$LOG"; fi
python3 - "$T/serial.yml" <<'PY'
import sys, yaml
p = yaml.safe_load(open(sys.argv[1]))
p[0]["tasks"][0]["when"] = "false"
yaml.safe_dump(p, open(sys.argv[1], "w"), sort_keys=False)
PY
LOG=$(cd "$T" && ansible-playbook -i "$hosts" -c local serial.yml 2>&1)
batches=$(grep -c '^PLAY \[' <<<"$LOG")
check_eq "$batches $(grep -c '"msg": "ran"' <<<"$LOG")" "5 8" \
	"playbook: a good roll-out runs all 8 hosts in 5 batches (1, 1, 2, 2, 2)"
finish

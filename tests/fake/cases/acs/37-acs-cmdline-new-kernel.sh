# On a kernel with pci=config_acs (>= 6.11) the boot-time form is checked:
# missing -> warn with the argument in the remedy; present (as printed by
# `hostprep acs cmdline`, booted through GRUB, which removes the quotes) -> pass.
# 6.12.30: a kernel with the 2025 config_acs fix (6.12.23+). On 6.1 the check is
# about pci=disable_acs_redir= (case 71).
newroot dgx8
useconf gpu-p2p
ref_private
for d in "$R" "$REF"; do echo "6.12.30-amd64" >"$d/proc/sys/kernel/osrelease"; done
hp acs cmdline
expect_rc 0
arg=$(cat "$T/out")
case $arg in 'pci=config_acs="'*'"') ;; *) fail "acs cmdline printed '$arg'" ;; esac
hp --json check
[ "$(jqo '[.results[] | select(.check=="acs.cmdline") | .verdict] | join(",")')" = warn ] ||
	fail "6.12 kernel without the argument: acs.cmdline is not warn"
jqo '.results[] | select(.check=="acs.cmdline") | .remedy // ""' >"$T/remedy"
grep -qF "$arg" "$T/remedy" || fail "the warn remedy does not contain the exact argument"
# the argument on the command line, as GRUB passes it (without the quotes)
for d in "$R" "$REF"; do
	printf '%s %s\n' "$(cat "$PRISTINE/dgx8/proc/cmdline")" "${arg//\"/}" >"$d/proc/cmdline"
done
hp --json check
[ "$(jqo '[.results[] | select(.check=="acs.cmdline") | .verdict] | join(",")')" = pass ] ||
	fail "6.12 kernel with the argument: acs.cmdline is not pass ($(jqo '.results[] | select(.check=="acs.cmdline") | .actual'))"
# a different mask for one port on the command line -> not pass
for d in "$R" "$REF"; do
	printf '%s %s\n' "$(cat "$PRISTINE/dgx8/proc/cmdline")" "$(printf '%s' "${arg//\"/}" | sed 's/x0x00xx@0000:15:01.0;/xx000x0@0000:15:01.0;/')" >"$d/proc/cmdline"
done
hp --json check
[ "$(jqo '[.results[] | select(.check=="acs.cmdline") | .verdict] | join(",")')" = warn ] ||
	fail "a wrong mask for 15:01.0 on the command line is not warn"
expect_tree_same
# and on the real 6.1 fixture: pci=disable_acs_redir= (missing: warn), never config_acs
newroot dgx8
useconf gpu-p2p
hp --json check
[ "$(jqo '[.results[] | select(.check=="acs.cmdline") | .verdict] | join(",")')" = warn ] ||
	fail "6.1 kernel without pci=disable_acs_redir=: acs.cmdline is not warn"
# on 6.1 the remedies name the boot-time form only as `acs cmdline` (which prints
# disable_acs_redir for x0x00xx), never config_acs, which 6.1 ignores
r=$(jqo '[.results[] | .remedy // "" | select(test("config_acs="))] | length')
[ "$r" = 0 ] || fail "on kernel 6.1 $r remedies point to pci=config_acs="
r=$(jqo '[.results[] | select(.check=="acs" and .verdict=="fail") | .remedy | select(test("acs cmdline"))] | length')
[ "$r" = 12 ] || fail "on kernel 6.1 with x0x00xx, $r of 12 drift remedies name 'hostprep acs cmdline' (disable_acs_redir)"
# ... and with a mask disable_acs_redir cannot express, no remedy points to a boot-time form
newroot dgx8
useconf gpu-p2p-zero
hp --json check
r=$(jqo '[.results[] | .remedy // "" | select(test("acs cmdline|boot with|config_acs|disable_acs_redir"))] | length')
[ "$r" = 0 ] || fail "on kernel 6.1 with mask 0000000 $r remedies point to a boot-time form: $(jqo '[.results[] | .remedy // "" | select(test("acs cmdline|boot with|config_acs|disable_acs_redir"))][0]')"

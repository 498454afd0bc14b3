# Kernels before 6.11 have no pci=config_acs=; pci=disable_acs_redir= (4.19)
# clears exactly RR|CR|EC = x0x00xx (issue 6 item 17). acs cmdline offers it
# where every port's policy is x0x00xx, refuses (exit 1, stderr, nothing on
# stdout) otherwise; acs.cmdline evaluates it as exactly as config_acs.
newroot dgx8
useconf gpu-p2p
ref_private
setcmd() {
	for d in "$R" "$REF"; do printf '%s %s\n' "$(cat "$PRISTINE/dgx8/proc/cmdline")" "$1" >"$d/proc/cmdline"; done
}
verdict() {
	hp --json check
	V=$(jqo '[.results[] | select(.check=="acs.cmdline") | .verdict] | join(",")')
	A=$(jqo '[.results[] | select(.check=="acs.cmdline") | .actual] | join(",")')
	M=$(jqo '[.results[] | select(.check=="acs.cmdline") | .remedy // ""] | join(",")')
}
grep -q '^6\.1\.' "$R/proc/sys/kernel/osrelease" || fail "fixture kernel is not 6.1"
hp acs cmdline
expect_rc 0
arg=$(cat "$T/out")
case $arg in 'pci=disable_acs_redir="0000:15:01.0;0000:15:01.0/00.0/00.0;'*'"') ;;
*) fail "acs cmdline on 6.1 printed '$arg', not pci=disable_acs_redir=\"...\"" ;; esac
expect_no_grep out config_acs
verdict
[ "$V" = warn ] || fail "6.1 without the argument: $V ($A)"
case $M in *"$arg"*) ;; *) fail "the remedy lacks the exact disable_acs_redir argument: $M" ;; esac
case $M in *config_acs*) fail "on 6.1 the remedy names config_acs: $M" ;; esac
# as GRUB boots it: pass; verbatim with the quotes: the kernel cannot parse the first device
setcmd "${arg//\"/}"
verdict
[ "$V" = pass ] || fail "6.1 with pci=disable_acs_redir= for every port: $V ($A)"
setcmd "$arg"
verdict
[ "$V" = warn ] || fail "6.1, quoted disable_acs_redir passed verbatim: $V"
case $A in *"quoted value passed verbatim"*) ;; *) fail "quoted disable_acs_redir: $A" ;; esac
# config_acs means nothing to 6.1
setcmd "pci=config_acs=$(printf '%s' "${arg//\"/}" | sed 's/^pci=disable_acs_redir=//; s/\(^\|;\)/\1x0x00xx@/g')"
verdict
[ "$V" = warn ] || fail "6.1 with only pci=config_acs=: $V"
# a policy disable_acs_redir cannot express: refuse, no boot-time form anywhere
newroot dgx8
useconf gpu-p2p-zero
hp acs cmdline
expect_rc 1
[ -s "$T/out" ] && fail "acs cmdline printed an argument for a 0000000 policy on 6.1: $(cat "$T/out")"
expect_grep err "no boot-time form for this policy on this kernel"
verdict
[ "$V" = skip ] || fail "6.1, 0000000 policy: acs.cmdline is $V"
case $A in *"wants 0000000: no boot-time form"*) ;; *) fail "6.1, 0000000 policy: $A" ;; esac
[ -z "$M" ] || fail "6.1, 0000000 policy: a remedy for a form that does not exist: $M"
# before 4.19: neither parameter
for d in "$R" "$REF"; do echo 4.14.336 >"$d/proc/sys/kernel/osrelease"; done
useconf gpu-p2p
hp acs cmdline
expect_rc 1
expect_grep err "no boot-time ACS parameter"
verdict
[ "$V" = skip ] || fail "4.14: acs.cmdline is $V"
expect_tree_same

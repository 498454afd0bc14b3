# acs.cmdline is pass only when the kernel really applies the policy at boot,
# evaluated the way next_arg() and __pci_config_acs() read /proc/cmdline
# (issue 6 item 9): quotes kept by the kernel, first entry wins, a malformed
# entry stops the walk, disable_acs_redir counts, kernels without the 2025 fix.
newroot dgx8
useconf gpu-p2p
ref_private
setk() { for d in "$R" "$REF"; do echo "$1" >"$d/proc/sys/kernel/osrelease"; done; }
setcmd() {
	for d in "$R" "$REF"; do printf '%s %s\n' "$(cat "$PRISTINE/dgx8/proc/cmdline")" "$1" >"$d/proc/cmdline"; done
}
verdict() {
	hp --json check
	V=$(jqo '[.results[] | select(.check=="acs.cmdline") | .verdict] | join(",")')
	A=$(jqo '[.results[] | select(.check=="acs.cmdline") | .actual] | join(",")')
	M=$(jqo '[.results[] | select(.check=="acs.cmdline") | .remedy // ""] | join(",")')
}
setk 6.12.30-amd64
hp acs cmdline
expect_rc 0
arg=$(cat "$T/out")
case $arg in 'pci=config_acs="'*'"') ;; *) fail "acs cmdline printed '$arg'" ;; esac
plain=${arg//\"/}
# as GRUB boots it (its script parser removes the quotes): pass
setcmd "$plain"
verdict
[ "$V" = pass ] || fail "unquoted argument on 6.12.30: $V ($A)"
# (a) the printed form passed verbatim (systemd-boot, UKI): the kernel keeps the quotes
setcmd "$arg"
verdict
[ "$V" = warn ] || fail "quoted value passed verbatim counted as $V ($A)"
case $A in *"quoted value passed verbatim: the kernel keeps the quotes and rejects the flags"*) ;;
*) fail "quoted value: actual does not say why: $A" ;; esac
case $M in *"$plain"*) ;; *) fail "quoted value: remedy lacks the unquoted argument: $M" ;; esac
# ... but a quote opening the word or the value is removed by the kernel: pass
setcmd "\"$plain\""
verdict
[ "$V" = pass ] || fail "whole word quoted: $V ($A)"
setcmd "pci=\"${plain#pci=}\""
verdict
[ "$V" = pass ] || fail "value quoted: $V ($A)"
# (b) an earlier entry for the same device wins
setcmd "pci=config_acs=xx000xx@0000:15:01.0;${plain#pci=config_acs=}"
verdict
[ "$V" = warn ] || fail "earlier entry for 15:01.0 counted as $V"
case $A in *"0000:15:01.0: entry #1 for 0000:15:01.0 (xx000xx) wins over entry #2"*) ;;
*) fail "first-match: actual does not name the winning entry: $A" ;; esac
# (c) a malformed entry stops the walk for the devices not named before it
bad=${plain/x0x00xx@0000:37:01.0;/x0x00yx@0000:37:01.0;}
setcmd "$bad"
verdict
[ "$V" = warn ] || fail "malformed entry counted as $V"
case $A in "not applied for 9 of 12 ports: 0000:37:01.0, "*"entry #4 (x0x00yx@0000:37:01.0): 'y' is not a flag (0, 1, x); the kernel reads no further") ;;
*) fail "malformed entry #4: expected the 9 ports after it stopped there: $A" ;; esac
# only the last config_acs= counts, across pci= words
setcmd "$plain pci=noaer,config_acs=x0x00xx@0000:15:01.0"
verdict
[ "$V" = warn ] || fail "a later config_acs= did not override the earlier one: $V"
# disable_acs_redir is exactly x0x00xx on 6.11+ too
setcmd "pci=disable_acs_redir=${plain#pci=config_acs=}"
verdict
[ "$V" = warn ] || fail "disable_acs_redir with flags@dev entries: $V"
setcmd "pci=disable_acs_redir=$(printf '%s' "${plain#pci=config_acs=}" | sed 's/x0x00xx@//g')"
verdict
[ "$V" = pass ] || fail "disable_acs_redir for every port on 6.12.30: $V ($A)"
# 6.12.9 lacks 9cf8a952d57b: only the first entry is parsed
setk 6.12.9-amd64
setcmd "$plain"
verdict
[ "$V" = warn ] || fail "6.12.9 (no fix) with a 16-device list: $V"
case $A in "kernel 6.12.9-amd64 may lack the 2025 pci=config_acs fix"*) ;; *) fail "6.12.9: $A" ;; esac
# a list that kernel would only partly honour is refused like every other refusal (issue
# 18): exit 1, the reason on stderr, nothing on stdout for a script to paste
hp acs cmdline
expect_rc 1
expect_grep "$T/err" "may lack the 2025 pci=config_acs fix"
[ -s "$T/out" ] && fail "6.12.9: acs cmdline printed an argument the kernel only partly honours: $(cat "$T/out")"
hp acs cmdline --install
expect_rc 1
[ -e "$R/etc/default/grub.d/50-hostprep-acs.cfg" ] && fail "6.12.9: --install wrote the drop-in"
expect_tree_same

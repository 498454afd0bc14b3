# The GRUB drop-in can be shadowed (issue 17.3): a later /etc/default/grub.d/*.cfg that
# assigns GRUB_CMDLINE_LINUX without keeping the old value drops the ACS argument from
# grub.cfg while --install said PASS. hostprep sources the chain with a real sh, in
# grub-mkconfig's order and sandboxed, at --install and in every check while the drop-in
# is recorded: fail naming the file; then compares with /boot/grub/grub.cfg and the BLS
# entries ("installed but update-grub not run").
S=/etc/default/grub.d/50-hostprep-acs.cfg
grub() { jqo '[.results[] | select(.check=="acs.grub" and (.expected|startswith("grub-mkconfig"))) | .verdict + "|" + .actual] | join(";")'; }
newroot dgx8
useconf gpu-p2p
echo "6.12.30-amd64" >"$R/proc/sys/kernel/osrelease"
mkdir -p "$R/etc/default/grub.d" "$R/boot/grub"
echo 'GRUB_CMDLINE_LINUX="quiet"' >"$R/etc/default/grub"
hp acs cmdline
arg=$(cat "$T/out")
# nothing recorded yet: check says nothing about GRUB
hp --json check
[ -z "$(grub)" ] || fail "acs.grub result without a recorded drop-in: $(grub)"

# installed, no grub.cfg yet: warn, update-grub named
hp --json acs cmdline --install
expect_rc 0
case $(grub) in "warn|grub-mkconfig keeps the argument, but no /boot/grub/grub.cfg"*) ;; *) fail "--install without grub.cfg: $(grub)" ;; esac
# grub.cfg generated before the drop-in: installed but update-grub not run
printf '%s\n' "menuentry 'Debian' {" "	linux /boot/vmlinuz-6.12.30-amd64 root=UUID=1 ro quiet" "}" \
	"menuentry 'Debian (recovery)' {" "	linux /boot/vmlinuz-6.12.30-amd64 root=UUID=1 ro single" "}" >"$R/boot/grub/grub.cfg"
hp --json check
case $(grub) in "warn|installed but update-grub not run: 2 of 2 kernel lines in /boot/grub/grub.cfg lack the argument") ;;
*) fail "stale grub.cfg: $(grub)" ;; esac
# after update-grub: pass
sed -i "s|ro quiet|ro quiet $arg|; s|ro single|ro single $arg|" "$R/boot/grub/grub.cfg"
hp --json check
case $(grub) in "pass|grub-mkconfig keeps it; all 2 kernel lines in /boot/grub/grub.cfg carry it") ;; *) fail "current grub.cfg: $(grub)" ;; esac
# BLS entries count too
mkdir -p "$R/boot/loader/entries"
printf 'title Debian\noptions root=UUID=1 ro\n' >"$R/boot/loader/entries/a.conf"
hp --json check
case $(grub) in "warn|installed but update-grub not run: 1 of 3 kernel lines in /boot/grub/grub.cfg and /boot/loader/entries lack"*) ;;
*) fail "stale BLS entry: $(grub)" ;; esac
rm -r "$R/boot/loader"

# a later drop-in that keeps the old value: still pass
echo 'GRUB_CMDLINE_LINUX="$GRUB_CMDLINE_LINUX console=ttyS0"' >"$R/etc/default/grub.d/60-serial.cfg"
hp --json check
case $(grub) in pass\|*) ;; *) fail "a later file that keeps the value: $(grub)" ;; esac
# one that does not: fail naming it, in check and at --install
echo 'GRUB_CMDLINE_LINUX="console=ttyS0"' >"$R/etc/default/grub.d/60-serial.cfg"
hp --json check
expect_rc 1
case $(grub) in "fail|shadowed: /etc/default/grub.d/60-serial.cfg, sourced after the drop-in, assigns"*) ;; *) fail "shadowed: $(grub)" ;; esac
hp --json acs cmdline --install
expect_rc 1
case $(grub) in "fail|shadowed: /etc/default/grub.d/60-serial.cfg"*) ;; *) fail "--install while shadowed: $(grub)" ;; esac
# GRUB_CMDLINE_LINUX_DEFAULT keeps it for the normal entries: grub-mkconfig puts both on them
printf '%s\n' 'GRUB_CMDLINE_LINUX_DEFAULT="$GRUB_CMDLINE_LINUX_DEFAULT $GRUB_CMDLINE_LINUX"' \
	'GRUB_CMDLINE_LINUX=""' >"$R/etc/default/grub.d/60-serial.cfg"
hp --json check
case $(grub) in pass\|*) ;; *) fail "argument moved to GRUB_CMDLINE_LINUX_DEFAULT: $(grub)" ;; esac
# a file sorted before the drop-in cannot shadow it
echo 'GRUB_CMDLINE_LINUX="console=ttyS0"' >"$R/etc/default/grub.d/40-serial.cfg"
rm "$R/etc/default/grub.d/60-serial.cfg"
hp --json check
case $(grub) in pass\|*) ;; *) fail "an earlier file: $(grub)" ;; esac
rm "$R/etc/default/grub.d/40-serial.cfg"

# sandbox: no input, no writes into the tree, and a file that never ends is stopped
printf '%s\n' 'read -r line; GRUB_CMDLINE_LINUX="$GRUB_CMDLINE_LINUX $line"' "echo pwned >\"$R/pwned\"" \
	>"$R/etc/default/grub.d/60-odd.cfg"
hp --json check
case $(grub) in pass\|*) ;; *) fail "a file reading stdin / writing: $(grub)" ;; esac
[ -e "$R/pwned" ] && fail "a sourced file wrote into the tree"
echo 'while :; do :; done' >"$R/etc/default/grub.d/60-odd.cfg"
start=$(date +%s)
hp --json check
[ $(($(date +%s) - start)) -le 20 ] || fail "a never-ending file held check for $(($(date +%s) - start)) s"
case $(grub) in unknown\|*) ;; *) fail "a never-ending file: $(grub)" ;; esac
echo 'exit 3' >"$R/etc/default/grub.d/60-odd.cfg"
hp --json check
case $(grub) in "unknown|sourcing the GRUB defaults as grub-mkconfig does stopped after"*) ;; *) fail "a file that exits: $(grub)" ;; esac
rm "$R/etc/default/grub.d/60-odd.cfg"

# uninstalled: nothing recorded, nothing reported
hp acs cmdline --uninstall
expect_rc 0
hp --json check
[ -z "$(grub)" ] || fail "acs.grub result after --uninstall: $(grub)"

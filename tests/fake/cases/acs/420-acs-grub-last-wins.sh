# The kernel keeps the last pci=config_acs= (issue 25 §3): a kernel line that carries
# hostprep's argument followed by an older one boots with the older one, yet acs.grub
# said "all kernel lines carry it". Each grub.cfg linux line, each BLS options line and
# the line grub-mkconfig will write from the /etc/default/grub chain is now judged with
# GRUB's word splitting and the parser acs.cmdline uses for /proc/cmdline.
grub() { jqo '[.results[] | select(.check=="acs.grub" and (.expected|startswith("grub-mkconfig"))) | .verdict + "|" + .actual] | join(";")'; }
newroot dgx8
useconf gpu-p2p
echo "6.12.30-amd64" >"$R/proc/sys/kernel/osrelease"
mkdir -p "$R/etc/default/grub.d" "$R/boot/grub"
echo 'GRUB_CMDLINE_LINUX="quiet"' >"$R/etc/default/grub"
hp acs cmdline
arg=$(cat "$T/out")
old='pci=config_acs="xx000x0@0000:15:01.0"'
hp --json acs cmdline --install
expect_rc 0
cfg() { # the linux lines of grub.cfg: "ARGS..." one per entry
	{
		for l in "$@"; do
			printf '%s\n' "menuentry 'Debian' {" "	linux /boot/vmlinuz-6.12.30-amd64 root=UUID=1 ro $l" "}"
		done
	} >"$R/boot/grub/grub.cfg"
}
# the report of the issue: ours, then an older one on the same line
cfg "quiet $arg" "quiet $arg $old"
hp --json check
case $(grub) in "fail|/boot/grub/grub.cfg:5: pci=config_acs=xx000x0@0000:15:01.0 comes after hostprep's argument on this kernel line and the kernel keeps the last") ;;
*) fail "ours then an older one: $(grub)" ;; esac
# the older one first: ours wins
cfg "quiet $old $arg"
hp --json check
case $(grub) in pass\|*) ;; *) fail "an older one before ours: $(grub)" ;; esac
# several pci= words, options split on ',': the later word's config_acs wins
cfg "quiet $arg pci=noaer,config_acs=1111111@0000:37:01.0"
hp --json check
case $(grub) in "fail|/boot/grub/grub.cfg:2: pci=config_acs=1111111@0000:37:01.0 comes after"*) ;;
*) fail "pci=noaer,config_acs= after ours: $(grub)" ;; esac
# one pci= word with ours then another option: still ours
cfg "quiet $arg pci=noaer"
hp --json check
case $(grub) in pass\|*) ;; *) fail "pci=noaer after ours: $(grub)" ;; esac
# GRUB's quoting: a whole word in quotes is one argument without them
cfg "quiet $arg \"$(printf '%s' "$old" | tr -d '"')\""
hp --json check
case $(grub) in fail\|/boot/grub/grub.cfg:2:*) ;; *) fail "a quoted older word: $(grub)" ;; esac
# comments are no kernel lines, and an unquoted # starts one
printf '%s\n' "menuentry 'Debian' {" "	linux /boot/vmlinuz root=UUID=1 ro $arg # $old" \
	"#	linux /boot/vmlinuz root=UUID=1 ro $arg $old" "}" >"$R/boot/grub/grub.cfg"
hp --json check
case $(grub) in "pass|grub-mkconfig keeps it; all 1 kernel lines in /boot/grub/grub.cfg carry it") ;;
*) fail "comments: $(grub)" ;; esac
# disable_acs_redir= is another option: it does not shadow config_acs=
cfg "quiet $arg pci=disable_acs_redir=0000:15:01.0"
hp --json check
case $(grub) in pass\|*) ;; *) fail "disable_acs_redir after ours: $(grub)" ;; esac
# unquoted, GRUB ends the command at the first ';': the kernel never sees ours whole
cfg "quiet $(printf '%s' "$arg" | tr -d '"')"
hp --json check
case $(grub) in "warn|installed but update-grub not run: 1 of 1 kernel lines"*) ;; *) fail "unquoted ours: $(grub)" ;; esac
# a BLS entry: its options line, named by file and line
cfg "quiet $arg"
mkdir -p "$R/boot/loader/entries"
printf 'title Debian\nlinux /vmlinuz\noptions root=UUID=1 ro %s %s\n' "$arg" "$old" >"$R/boot/loader/entries/a.conf"
hp --json check
case $(grub) in "fail|/boot/loader/entries/a.conf:3: pci=config_acs=xx000x0@0000:15:01.0 comes after"*) ;;
*) fail "BLS options line: $(grub)" ;; esac
rm -r "$R/boot/loader"

# the chain itself: GRUB_CMDLINE_LINUX_DEFAULT goes after GRUB_CMDLINE_LINUX on the line
# grub-mkconfig writes, so an older argument there wins over the drop-in's
cfg "quiet $arg"
printf 'GRUB_CMDLINE_LINUX="quiet"\nGRUB_CMDLINE_LINUX_DEFAULT="splash %s"\n' "$(printf '%s' "$old" | sed 's/"/\\"/g')" >"$R/etc/default/grub"
hp --json check
case $(grub) in "fail|/etc/default/grub: on the kernel line grub-mkconfig writes (GRUB_CMDLINE_LINUX, then GRUB_CMDLINE_LINUX_DEFAULT) the kernel keeps pci=config_acs=xx000x0@0000:15:01.0, not hostprep's argument") ;;
*) fail "an older argument in GRUB_CMDLINE_LINUX_DEFAULT: $(grub)" ;; esac
# a later drop-in that appends an older one (keeping ours) is named
echo 'GRUB_CMDLINE_LINUX="quiet"' >"$R/etc/default/grub"
printf 'GRUB_CMDLINE_LINUX="$GRUB_CMDLINE_LINUX %s"\n' "$(printf '%s' "$old" | sed 's/"/\\"/g')" >"$R/etc/default/grub.d/60-old.cfg"
hp --json check
case $(grub) in "fail|/etc/default/grub.d/60-old.cfg: on the kernel line"*"keeps pci=config_acs=xx000x0@0000:15:01.0, not"*) ;;
*) fail "a later file appending an older argument: $(grub)" ;; esac
rm "$R/etc/default/grub.d/60-old.cfg"
hp --json check
case $(grub) in pass\|*) ;; *) fail "clean chain: $(grub)" ;; esac

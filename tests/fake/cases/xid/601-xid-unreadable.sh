# [Xid]: a kernel log that cannot be read is unknown in each of the three checks, never a
# pass and never a hang: no dev/kmsg, a directory, a FIFO (opened non-blocking), a device
# node in a tree (not that tree's log), a file without permission (as nobody). An empty log
# passes with "0 records read"; nothing is written.
newroot dgx8
ref_private
for d in "$R" "$REF"; do printf '[Xid]\n' >"$d/etc/hostprep/hostprep.conf"; done
unknowns() {
	[ "$(jqo '[.results[] | select(.check | test("^(xid|kernel)")) | "\(.check)=\(.verdict)"] | join(" ")')" = \
		"xid.gpu=unknown xid.sxid=unknown kernel.log=unknown" ] ||
		fail "$1: $(jqo '[.results[] | select(.check | test("^(xid|kernel)")) | "\(.check)=\(.verdict)"] | join(" ")')"
	expect_grep out "$2" "$1: the reason"
}
hp --json check
expect_rc 1
unknowns "no dev/kmsg" "cannot read the tree's kernel log: No such file or directory"

mkdir -p "$R/dev/kmsg"
hp --json check
expect_rc 1
unknowns "a directory" "cannot read the tree's kernel log: "
rmdir "$R/dev/kmsg"

mkfifo "$R/dev/kmsg"
HP_ENV=(timeout 20)
hp --json check
HP_ENV=()
[ "$RC" != 124 ] || fail "a FIFO blocked the check"
expect_rc 1
unknowns "a FIFO" "not a log \\(a device node or FIFO\\)"
rm "$R/dev/kmsg"

if [ "$(id -u)" = 0 ]; then
	mknod "$R/dev/kmsg" c 1 11
	hp --json check
	expect_rc 1
	unknowns "a device node in a tree" "not a log \\(a device node or FIFO\\)"
	rm "$R/dev/kmsg"
	if command -v setpriv >/dev/null; then
		printf '4,1,1,-;NVRM: Xid (PCI:0000:19:00): 79, x\n' >"$R/dev/kmsg"
		chmod -R a+rX "$T"
		chmod 0600 "$R/dev/kmsg"
		HP_ENV=(setpriv --reuid=65534 --regid=65534 --clear-groups)
		hp --json check
		HP_ENV=()
		expect_rc 1
		unknowns "unreadable as nobody" "Permission denied"
		expect_grep out "dmesg_restrict" "the remedy says how to read it"
		rm "$R/dev/kmsg"
	fi
else
	note "not root: the device node and the nobody edges are not run"
fi

: >"$R/dev/kmsg"
hp --json check
expect_rc 0
[ "$(jqo '.results[] | select(.check == "xid.gpu") | "\(.verdict) \(.actual)"')" = \
	"pass no Xid since boot (kmsg: 0 records read)" ] || fail "an empty log: $(cat "$T/out")"

# a log of which no line is a record in the kernel's format (dmesg's text in its place) was
# not read: unknown, never "no Xid since boot" (an audit found it passing over an Xid 79)
cat >"$R/dev/kmsg" <<'X'
[    0.000000] Linux version 6.1.0-27-amd64 (debian-kernel@lists.debian.org)
[ 5211.000123] NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.
X
hp --json check
expect_rc 1
unknowns "dmesg text" "no line of it is a record in the kernel's format"

rm "$R/dev/kmsg"
rmdir "$R/dev"
expect_tree_same


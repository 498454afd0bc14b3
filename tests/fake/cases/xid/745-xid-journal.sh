# [Xid] (issue 28 §4): the journal's kernel records of this boot come first, /dev/kmsg
# when it has none. (a) an Xid 79 only in the journal (the kmsg ring lost it): xid.gpu
# fails naming it and "(journal)", the host lines say "journal: N records read", a
# record of another transport is not read; (b) a journal of another boot only: /dev/kmsg,
# and the results say the journal held no kernel record of this boot; (c) no journal
# directory: /dev/kmsg as before, nothing said about the journal. (d) a snapshot of (a)
# keeps the journal's records as its dev/kmsg, not the journal files, and its replay
# judges the same from there. (e) a journal reached through a link out of the root is not
# read; (f) nor a file last written before this boot began. Nothing is written.
. "$HERE/lib-snapshot.sh"
JR=/lib/systemd/systemd-journal-remote
[ -x "$JR" ] || skip "no $JR (package systemd-journal-remote)"
BOOT=0f7e2b4e-5a0c-4c8e-9d2e-5c1f6a1b2c3d
MID=11112222333344445555666677778888
# one export-format record: seq, monotonic usec, boot id (no dashes), transport, message
rec() {
	printf '__CURSOR=s=0;i=%x\n__REALTIME_TIMESTAMP=%s\n__MONOTONIC_TIMESTAMP=%s\n' \
		"$1" "$((1700000000000000 + $2))" "$2"
	printf '_BOOT_ID=%s\n_MACHINE_ID=%s\n_TRANSPORT=%s\n_SOURCE_MONOTONIC_TIMESTAMP=%s\n' \
		"$3" "$MID" "$4" "$2"
	printf 'MESSAGE=%s\n\n' "$5"
}
# journal DIR BOOT_ID: a journal file (8 MiB) built once, linked into each tree
journal() {
	local b=${2//-/}
	{
		rec 1 1000 "$b" kernel "Linux version 6.1.0-27-amd64"
		rec 2 5000000 "$b" kernel "NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."
		rec 3 6000000 "$b" stdout "NVRM: Xid (PCI:0000:3c:00): 79, not the kernel's"
	} >"$T/$1.export"
	mkdir -p "$T/$1/var/log/journal/$MID"
	"$JR" --output="$T/$1/var/log/journal/$MID/remote.journal" - <"$T/$1.export" 2>"$T/jr.err" ||
		fail "$JR: $(cat "$T/jr.err")"
}
journal this "$BOOT"
journal other 99999999-5a0c-4c8e-9d2e-5c1f6a1b2c3d
newroot dgx8
ref_private
for d in "$R" "$REF"; do
	mkdir -p "$d/dev" "$d/proc/sys/kernel/random"
	echo "$BOOT" >"$d/proc/sys/kernel/random/boot_id"
	printf '[Xid]\n' >"$d/etc/hostprep/hostprep.conf"
	printf '6,40,1000,-;Linux version 6.1.0-27-amd64\n6,41,2000,-;the ring kept only this\n' >"$d/dev/kmsg"
done
# link (or unlink) the journal of $1 into both trees
use() {
	rm -rf "$R/var/log/journal" "$REF/var/log/journal"
	[ -z "$1" ] && return
	mkdir -p "$R/var/log" "$REF/var/log"
	cp -al "$T/$1/var/log/journal" "$R/var/log/journal"
	cp -al "$T/$1/var/log/journal" "$REF/var/log/journal"
}
host() { jqo ".results[] | select(.check == \"$1\" and .object == \"host\") | \"\(.verdict) \(.actual)\""; }

use this
hp --json check
expect_rc 1
[ "$(jqo '.results[] | select(.check == "xid.gpu") | "\(.object) \(.verdict) \(.action) \(.actual)"')" = \
	"0000:3b:00.0 fail reboot Xid 79 at 5.000000 s since boot (journal): GPU has fallen off the bus [NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.]" ] ||
	fail "(a) the journal's Xid 79: $(jqo -c '[.results[] | select(.check == "xid.gpu")]')"
[ "$(host xid.sxid)" = "pass no SXid since boot (journal: 2 records read)" ] ||
	fail "(a) the journal named, its kernel records counted: $(host xid.sxid)"

hp snapshot -o "$T/snap.tar.zst"
expect_rc 0
snap_extract "$T/snap.tar.zst" "$T/x"
[ -e "$T/x/var/log/journal" ] && fail "(d) the journal files captured"
grep -q "^6,1,5000000,-;NVRM: Xid (PCI:0000:3b:00): 79" "$T/x/dev/kmsg" ||
	fail "(d) the journal's Xid not kept as a kmsg record: $(cat "$T/x/dev/kmsg")"
"$BIN" --root "$T/x" --no-color --json check </dev/null >"$T/replay.json" 2>"$T/replay.err"
[ "$(jq -r '.results[] | select(.check == "xid.gpu") | "\(.object) \(.verdict) \(.actual)"' "$T/replay.json")" = \
	"0000:3b:00.0 fail Xid 79 at 5.000000 s since boot: GPU has fallen off the bus [NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.]" ] ||
	fail "(d) the replay: $(jq -c '[.results[] | select(.check == "xid.gpu")]' "$T/replay.json")"

use other
hp --json check
expect_rc 0
[ "$(host xid.gpu)" = "pass no Xid since boot (kmsg: 2 records read); the journal holds no kernel record of this boot; from record 40 on: the kernel's buffer no longer holds the earlier ones" ] ||
	fail "(b) another boot's journal: $(host xid.gpu)"

# (e) var/log/journal a link out of the root (to the journal with the Xid): libsystemd is
# handed only files opened inside the root, so the link finds nothing there: kmsg
rm -rf "$R/var/log/journal"
ln -s "$T/this/var/log/journal" "$R/var/log/journal"
hp --json check
expect_rc 0
[ "$(host xid.gpu)" = "pass no Xid since boot (kmsg: 2 records read); from record 40 on: the kernel's buffer no longer holds the earlier ones" ] ||
	fail "(e) a journal reached through a link out of the root was read: $(host xid.gpu)"
rm "$R/var/log/journal"

# (f) a journal file last written before this boot began (/proc/stat btime) holds none
# of its records: not opened, kmsg as without a journal
use this
cp "$R/proc/stat" "$T/stat.saved" 2>/dev/null || : >"$T/stat.saved"
printf 'cpu  1 2 3 4\nbtime %s\n' "$(( $(stat -c %Y "$T/this/var/log/journal/$MID/remote.journal") + 3600 ))" >"$R/proc/stat"
hp --json check
expect_rc 0
[ "$(host xid.gpu)" = "pass no Xid since boot (kmsg: 2 records read); from record 40 on: the kernel's buffer no longer holds the earlier ones" ] ||
	fail "(f) a journal file of an earlier boot was read: $(host xid.gpu)"
cp "$T/stat.saved" "$R/proc/stat"
[ -s "$T/stat.saved" ] || rm "$R/proc/stat"

use ""
hp --json check
expect_rc 0
[ "$(host kernel.log)" = "pass no degraded link, AER/DPC error or unknown symbol since boot (kmsg: 2 records read); from record 40 on: the kernel's buffer no longer holds the earlier ones" ] ||
	fail "(c) no journal: $(host kernel.log)"
expect_tree_same

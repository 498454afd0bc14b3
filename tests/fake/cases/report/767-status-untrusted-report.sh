# A READY report opens gates (status, gate UNIT: kubelet's and slurmd's ExecCondition=),
# so only a report root wrote counts, as for the gate's own records: one writable by
# group or others, owned by another user, or a symlink is never read and never READY
# (status and gate exit 1, saying why). An audit forged READY all three ways.
newroot dgx8
useconf gpu-p2p
f=$R/run/hostprep/report.json

# untrusted WHAT: status and gate refuse the report as it stands
untrusted() {
	hp status --oneline
	expect_rc 1
	expect_grep out "^NOT READY: the last report is not root's: not trusted$" "$1: status --oneline"
	hp status
	expect_rc 1
	expect_grep err "The last report is not root's" "$1: status does not say why"
	hp gate kubelet.service
	expect_rc 1
	[ -e "$R/run/hostprep/gate/kubelet.service" ] && fail "$1: the gate recorded a pass"
	rm -rf "$R/run/hostprep/gate"
}

hp apply
expect_rc 0
hp status --oneline
expect_rc 0
expect_grep out '^READY'

chmod 0666 "$f"
untrusted "world-writable"
chmod 0664 "$f"
untrusted "group-writable"
chmod 0644 "$f"
hp status --oneline
expect_rc 0

cp "$f" "$T/forged.json"
rm "$f"
ln -s "$T/forged.json" "$f"
untrusted "a symlink"
rm "$f"
ln -s report.forged "$f"
cp "$T/forged.json" "$R/run/hostprep/report.forged"
untrusted "a symlink inside the directory"
rm "$f"
cp "$T/forged.json" "$f"

if [ "$(id -u)" = 0 ]; then
	chown 1000:1000 "$f"
	untrusted "another owner"
	chown 0:0 "$f"
	hp status --oneline
	expect_rc 0
else
	note "not root: the other-owner step needs chown"
fi

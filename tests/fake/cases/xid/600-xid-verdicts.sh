# [Xid] (issue 28 §4): every class of the Xid table, Xid 154's action from its text, an
# unknown code, the SXid severities, and each kernel.log signature, one record each in a
# dev/kmsg file under --root: the verdict, the action and the object of each, and the
# log line with its time as the evidence. Nothing is written.
newroot dgx8
ref_private
for d in "$R" "$REF"; do
	mkdir -p "$d/dev"
	printf '[Xid]\n' >"$d/etc/hostprep/hostprep.conf"
	cat >"$d/dev/kmsg" <<'EOT'
6,0,1000,-;Linux version 6.1.0-27-amd64
 SUBSYSTEM=x
4,10,2000000,-;NVRM: Xid (PCI:0000:18:00): 43, pid=1, name=a, Ch 00000008
4,11,3000000,-;NVRM: Xid (PCI:0000:19:00): 13, pid=1, name=a, Graphics Exception
4,12,4000000,-;NVRM: Xid (PCI:0000:3A:00): 48, pid=1, name=a, DBE
4,13,5000000,-;NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.
4,14,6000000,-;NVRM: Xid (PCI:0000:9a:00): 64, pid=1, row remapper failure
4,15,7000000,-;NVRM: Xid (PCI:0000:9b:00): 177, something new
4,16,8000000,-;NVRM: Xid (PCI:0000:ba:00): 154, GPU recovery action changed from 0x0 (None) to 0x1 (GPU Reset Required)
4,17,8500000,-;NVRM: Xid (PCI:0000:bb:00): 154, GPU recovery action changed from 0x1 (GPU Reset Required) to 0x0 (None)
4,20,9000000,-;nvidia-nvswitch0: SXid (PCI:0000:06:00.0): 20034, Fatal, Link 30 LTSSM Fault Up
4,21,9000001,-;nvidia-nvswitch1: SXid (PCI:0000:07:00.0): 12028, Non-fatal, Link 44 egress non-posted PRIV error
4,22,9000002,-;nvidia-nvswitch2: SXid (PCI:0000:08:00.0): 11004, Link 1
3,30,10000000,-;mlx5_core 0000:1a:00.0: 63.008 Gb/s available PCIe bandwidth, limited by 8.0 GT/s PCIe x8 link at 0000:17:00.0 (capable of 252.048 Gb/s with 16.0 GT/s PCIe x16 link)
3,31,11000000,-;pcieport 0000:16:02.0: AER: Corrected error received: 0000:18:00.0
3,32,11000001,-;pcieport 0000:16:02.0: AER: Uncorrected (Non-Fatal) error received: 0000:19:00.0
3,33,11000002,-;pcieport 0000:16:02.0: AER: Uncorrectable (Fatal) error message received from 0000:1a:00.0
3,34,12000000,-;pcieport 0000:16:02.0: DPC: containment event, status:0x1f01 source:0x0000
3,35,13000000,-;nvidia_peermem: Unknown symbol ib_register_peer_memory_client (err -2)
EOT
done
hp --json check
expect_rc 1
jq -r '.results[] | select(.check | test("^(xid|kernel)")) | "\(.check) \(.object) \(.verdict) \(.action)"' "$T/out" >"$T/got"
cat >"$T/want" <<'EOT'
xid.gpu 0000:18:00.0 pass none
xid.gpu 0000:19:00.0 warn restart-app
xid.gpu 0000:3a:00.0 fail reset-gpu
xid.gpu 0000:3b:00.0 fail reboot
xid.gpu 0000:9a:00.0 fail hardware
xid.gpu 0000:9b:00.0 warn inspect
xid.gpu 0000:ba:00.0 fail reset-gpu
xid.gpu 0000:bb:00.0 pass none
xid.sxid 0000:06:00.0 fail reset-gpu
xid.sxid 0000:07:00.0 pass none
xid.sxid 0000:08:00.0 warn inspect
kernel.log 0000:1a:00.0 warn hardware
kernel.log 0000:18:00.0 pass none
kernel.log 0000:19:00.0 warn hardware
kernel.log 0000:1a:00.0 fail hardware
kernel.log 0000:16:02.0 fail hardware
kernel.log nvidia_peermem fail driver
EOT
diff -u "$T/want" "$T/got" >"$T/d" || fail "verdicts differ: $(cat "$T/d")"
# the evidence: the code, its meaning, its time since boot, the line itself
[ "$(jqo '.results[] | select(.object == "0000:3a:00.0") | .actual')" = \
	"Xid 48 at 4.000000 s since boot: Double Bit ECC Error [NVRM: Xid (PCI:0000:3A:00): 48, pid=1, name=a, DBE]" ] ||
	fail "Xid 48's evidence: $(jqo '.results[] | select(.object == "0000:3a:00.0") | .actual')"
expect_grep out 'Xid 177 at 7.000000 s since boot: not in hostprep.s table' "an unknown code says so"
expect_grep out 'SXid 20034 at 9.000000 s since boot: fatal \[nvidia-nvswitch0' "SXid evidence"
expect_grep out 'nvidia-smi -r -i 0000:3a:00.0' "reset-gpu's remedy names the GPU"
expect_grep out 'stop nvidia-fabricmanager' "a fatal SXid's remedy resets the fabric"
# one cause per class: the repair controller's key
[ "$(jqo '[.results[] | select(.check == "xid.gpu") | .cause // "none"] | unique | join(" ")')" = \
	"none xid.gpu:hardware xid.gpu:inspect xid.gpu:reboot xid.gpu:reset-gpu xid.gpu:restart-app" ] ||
	fail "causes: $(jqo '[.results[] | select(.check == "xid.gpu") | .cause] | unique | join(" ")')"
expect_tree_same

# an application's fault alone leaves the host ready
printf '4,1,1,-;NVRM: Xid (PCI:0000:19:00): 13, pid=1, name=a, x\n' >"$R/dev/kmsg"
hp check
expect_rc 0
grep -q '^WARN *xid.gpu *0000:19:00.0' "$T/out" || fail "Xid 13 alone: $(cat "$T/out")"

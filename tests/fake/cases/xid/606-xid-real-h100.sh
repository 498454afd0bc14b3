# [Xid] on a real H100 host's kernel log (tests/fake/real/h100-firecracker/kmsg.txt, read
# from /dev/kmsg on a lent machine): every record parses (flags '-' and 'c'), nothing there
# is a finding, the three checks pass counting all 358 records; the same log with an Xid 79
# for that machine's GPU (the slot of its /proc/driver/nvidia entry) fails it, reboot.
. "$HERE/real/lib.sh"
FX=$HERE/real/h100-firecracker
realroot h100-firecracker
mkdir -p "$R/dev"
cp "$FX/kmsg.txt" "$R/dev/kmsg"
printf '[IOMMU]\nExpect=any\n[Xid]\n' >"$T/xid.conf"
n=$(grep -c . "$FX/kmsg.txt")
hp --config "$T/xid.conf" --json check
expect_rc 0
[ "$(jq -r '[.results[] | select(.check | test("^(xid|kernel)")) | "\(.check) \(.verdict) \(.actual)"] | join("|")' "$T/out")" = \
	"xid.gpu pass no Xid since boot (kmsg: $n records read)|xid.sxid pass no SXid since boot (kmsg: $n records read)|kernel.log pass no degraded link, AER/DPC error or unknown symbol since boot (kmsg: $n records read)" ] ||
	fail "the real log: $(jq -c '[.results[] | select(.check | test("^(xid|kernel)")) | .actual]' "$T/out")"
gpu=$(ls "$R/proc/driver/nvidia/gpus")
[ "$gpu" = 0000:00:06.0 ] || fail "the fixture's GPU is $gpu"
printf '4,%s,9876543210,-;NVRM: Xid (PCI:%s): 79, pid='"'"'<unknown>'"'"', name=<unknown>, GPU has fallen off the bus.\n' \
	"$n" "${gpu%.0}" >>"$R/dev/kmsg"
hp --config "$T/xid.conf" --json check
expect_rc 1
[ "$(jq -r '.results[] | select(.check == "xid.gpu") | "\(.object) \(.verdict) \(.action)"' "$T/out")" = "$gpu fail reboot" ] ||
	fail "Xid 79 on the real GPU: $(jq -c '.results[] | select(.check == "xid.gpu")' "$T/out")"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# On a lent NVIDIA GPU host, read-only: [Xid] on the real kernel log (/dev/kmsg, the live
# NVRM lines), compared with what dmesg and grep find there; its snapshot (which records
# the log, unjudged text blanked) replayed to the same verdicts; the cost of the check
# against the same check without [Xid]; the check never blocks (timeout). Output:
# $OUT/xid.tar.xz + a summary on stdout.
set -u
D=$(mktemp -d)/xid
mkdir -p "$D/replay"
export LD_LIBRARY_PATH=$PWD/.dev/lib
HP=$PWD/.dev/hostprep
C=tests/device/h100-xid.conf
timeout 60 "$HP" --config "$C" check >"$D/check.txt" 2>&1; echo "rc=$?" >>"$D/check.txt"
timeout 60 "$HP" --config "$C" --json check >"$D/check.json" 2>"$D/check.err"
# the oracle: the kernel's own reader and grep
dmesg -r >"$D/dmesg.raw" 2>&1; echo "dmesg records: $(grep -c '^<' "$D/dmesg.raw")" >"$D/oracle.txt"
grep -E 'NVRM: Xid|SXid|PCIe bandwidth|AER: .*error.*received|DPC: containment|Unknown symbol' \
	"$D/dmesg.raw" >>"$D/oracle.txt"
grep -c 'NVRM' "$D/dmesg.raw" | sed 's/^/NVRM lines: /' >>"$D/oracle.txt"
timeout 60 "$HP" --config "$C" snapshot -o "$D/snap.tar.zst" >"$D/snap.txt" 2>&1
tar -C "$D/replay" -xf "$D/snap.tar.zst" 2>>"$D/snap.txt" || zstd -dc "$D/snap.tar.zst" | tar -C "$D/replay" -x
"$HP" --root "$D/replay" --config "$C" --json check >"$D/replay.json" 2>"$D/replay.err"
jq -c '[.results[] | select(.check | test("^(xid|kernel)")) | [.check, .object, .verdict]]' "$D/check.json" >"$D/live.v"
jq -c '[.results[] | select(.check | test("^(xid|kernel)")) | [.check, .object, .verdict]]' "$D/replay.json" >"$D/replay.v"
cmp -s "$D/live.v" "$D/replay.v" && echo "REPLAY SAME" || echo "REPLAY DIFFERS"
printf '[Host]\nApply=no\n[IOMMU]\nExpect=any\n' >"$D/without.conf"
t() { local s e; s=$(date +%s%N); for i in $(seq 20); do "$HP" --config "$1" check >/dev/null 2>&1; done; e=$(date +%s%N); echo "$1: $(( (e - s) / 20000 )) us per check"; }
t "$D/without.conf" | tee "$D/time.txt"
t "$C" | tee -a "$D/time.txt"
cp "$D/replay/dev/kmsg" "$D/recorded-kmsg" 2>/dev/null
rm -f "$D/dmesg.raw" # the host's whole log stays on the host
tar -C "$(dirname "$D")" -cJf "$OUT/xid.tar.xz" xid
cat "$D/check.txt" "$D/oracle.txt" "$D/time.txt" "$D/snap.txt"; grep -c . "$D/recorded-kmsg"
grep -v ';$' "$D/recorded-kmsg" | head -20; diff "$D/live.v" "$D/replay.v"
jq -r '.results[] | select(.check | test("^(xid|kernel)")) | "\(.check) \(.object) \(.verdict) \(.actual)"' "$D/check.json"

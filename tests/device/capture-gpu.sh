#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# On a lent NVIDIA GPU host, read-only: [GPU] judged live through the real NVML, its
# snapshot (which records NVML's answers) replayed to the same verdicts, and the cost of
# the GPU checks against the same check without them. Output: $OUT/gpu.tar.xz + summary.
set -u
D=$(mktemp -d)/gpu
mkdir -p "$D/replay"
export LD_LIBRARY_PATH=$PWD/.dev/lib
HP=$PWD/.dev/hostprep
C=tests/device/h100-gpu.conf
"$HP" --config "$C" check >"$D/check.txt" 2>&1; echo "rc=$?" >>"$D/check.txt"
"$HP" --config "$C" --json check >"$D/check.json" 2>"$D/check.err"
"$HP" --config "$C" snapshot -o "$D/snap.tar.zst" >"$D/snap.txt" 2>&1
tar -C "$D/replay" -xf "$D/snap.tar.zst" 2>>"$D/snap.txt" || zstd -dc "$D/snap.tar.zst" | tar -C "$D/replay" -x
"$HP" --root "$D/replay" --config "$C" --json check >"$D/replay.json" 2>"$D/replay.err"
jq -c '[.results[] | [.check, .object, .verdict, .expected]]' "$D/check.json" >"$D/live.v"
jq -c '[.results[] | [.check, .object, .verdict, .expected]]' "$D/replay.json" >"$D/replay.v"
cmp -s "$D/live.v" "$D/replay.v" && echo "REPLAY SAME" || echo "REPLAY DIFFERS"
t() { local s e; s=$(date +%s%N); for i in $(seq 20); do "$HP" --config "$1" check >/dev/null 2>&1; done; e=$(date +%s%N); echo "$1: $(( (e - s) / 20000 )) us per check"; }
t tests/device/h100-vm.conf | tee "$D/time.txt"
t "$C" | tee -a "$D/time.txt"
/usr/bin/time -f "maxrss %M KiB" "$HP" --config "$C" check >/dev/null 2>>"$D/time.txt"
cp "$D/replay/run/hostprep/snapshot/nvml.txt" "$D/recorded-nvml.txt" 2>/dev/null
tar -C "$(dirname "$D")" -cJf "$OUT/gpu.tar.xz" gpu
cat "$D/check.txt" "$D/time.txt" "$D/snap.txt"; head -40 "$D/recorded-nvml.txt"; diff "$D/live.v" "$D/replay.v"

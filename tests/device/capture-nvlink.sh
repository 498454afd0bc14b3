#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# On a lent NVIDIA GPU host, read-only: NVLink and the fabric through the real NVML
# ([GPU] NVLinks=, gpu.fabric, the topology's NV# and its legend) against nvidia-smi
# topo -m and nvidia-smi nvlink -s; the snapshot (which records NVML's link answers)
# replayed to the same verdicts and the same topology. Output: $OUT/nvlink.tar.xz.
set -u
D=$(mktemp -d)/nvlink
mkdir -p "$D/replay"
export LD_LIBRARY_PATH=$PWD/.dev/lib
HP=$PWD/.dev/hostprep
C=tests/device/h100-nvlink.conf
timeout 60 "$HP" --config "$C" --json check >"$D/check.json" 2>"$D/check.err"; echo "check rc=$?"
timeout 60 "$HP" topology >"$D/topology.txt" 2>&1; echo "topology rc=$?"
timeout 60 "$HP" --json topology >"$D/topology.json" 2>&1
nvidia-smi topo -m >"$D/nvidia-smi-topo-m.txt" 2>&1
nvidia-smi nvlink -s >"$D/nvidia-smi-nvlink-s.txt" 2>&1; echo "nvlink -s rc=$?" >>"$D/nvidia-smi-nvlink-s.txt"
timeout 60 "$HP" --config "$C" snapshot -o "$D/snap.tar.zst" >"$D/snap.txt" 2>&1
tar -C "$D/replay" -xf "$D/snap.tar.zst" 2>>"$D/snap.txt" || zstd -dc "$D/snap.tar.zst" | tar -C "$D/replay" -x
"$HP" --root "$D/replay" --config "$C" --json check >"$D/replay.json" 2>"$D/replay.err"
"$HP" --root "$D/replay" topology >"$D/replay-topology.txt" 2>&1
jq -c '[.results[] | [.check, .object, .verdict, .expected, .actual]]' "$D/check.json" | sed 's/(NVML)/(N)/g; s/(recorded NVML)/(N)/g' >"$D/live.v"
jq -c '[.results[] | [.check, .object, .verdict, .expected, .actual]]' "$D/replay.json" | sed 's/(NVML)/(N)/g; s/(recorded NVML)/(N)/g' >"$D/replay.v"
cmp -s "$D/live.v" "$D/replay.v" && echo "REPLAY SAME" || echo "REPLAY DIFFERS"
cmp -s "$D/topology.txt" "$D/replay-topology.txt" && echo "TOPOLOGY REPLAY SAME" || echo "TOPOLOGY REPLAY DIFFERS"
cp "$D/replay/run/hostprep/snapshot/nvml.txt" "$D/recorded-nvml.txt" 2>/dev/null
tar -C "$(dirname "$D")" -cJf "$OUT/nvlink.tar.xz" nvlink
jq -r '.results[] | select(.check | startswith("gpu.")) | "\(.check) \(.object) \(.verdict) \(.actual)"' "$D/check.json"
cat "$D/topology.txt" "$D/nvidia-smi-topo-m.txt" "$D/nvidia-smi-nvlink-s.txt"
grep -i nvlink "$D/recorded-nvml.txt" | head -5
diff "$D/live.v" "$D/replay.v" | head; diff "$D/topology.txt" "$D/replay-topology.txt" | head

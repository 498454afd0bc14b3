#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Run on a lent NVIDIA GPU host (the device tool; read-only: no apply, no
# revert, nothing written under /sys): hostprep's read-only commands against
# the real driver, NVML and sysfs, beside the vendor's own view (nvidia-smi
# -q, topo -m, pynvml), and the raw files the GPU checks will read, so the
# result is a fixture with its provenance. Everything lands in $OUT/cap.tar.xz
# and a summary on stdout.
#   usage: tests/device/capture.sh   (from the repo root; .dev/ carried)
set -u
D=$(mktemp -d)/cap
mkdir -p "$D"
export LD_LIBRARY_PATH=$PWD/.dev/lib
HP=$PWD/.dev/hostprep
t() { local n=$1; shift; timeout 60 "$@" >"$D/$n" 2>&1; echo "rc=$?" >>"$D/$n"; }

# the host
t uname.txt uname -a
t os-release.txt cat /etc/os-release
t cmdline.txt cat /proc/cmdline
t modules.txt cat /proc/modules
t lspci.txt lspci -nn -vvv
t lspci-tree.txt lspci -tv
t ls-pci.txt ls -l /sys/bus/pci/devices/
t iommu-groups.txt ls -R /sys/kernel/iommu_groups
t dev.txt ls -l /dev/nvidia* /dev/nvidia-caps /dev/infiniband
t ib.txt ls -lR /sys/class/infiniband /sys/class/net
t dmesg.txt dmesg
t journal-k.txt journalctl -k -b --no-pager -o short-monotonic
t systemctl.txt systemctl is-active nvidia-persistenced nvidia-fabricmanager
t ps.txt ps -eo pid,comm,args

# the vendor's view
t smi-L.txt nvidia-smi -L
t smi-q.txt nvidia-smi -q
t smi-q.xml nvidia-smi -q -x
t smi-topo.txt nvidia-smi topo -m
t smi-nvlink.txt nvidia-smi nvlink -s
t smi-fabric.txt nvidia-smi -q -d FABRIC
t smi-rows.txt nvidia-smi -q -d ROW_REMAPPER,PAGE_RETIREMENT,ECC
t oracle.txt python3 tests/device/nvml-oracle.py
t probe.txt .dev/nvml-probe
t probe2.txt .dev/nvml-probe

# the raw files (procfs files read one by one: tar reads them as empty)
mkdir -p "$D/raw"
for f in $(find /proc/driver/nvidia /sys/module/nvidia /sys/module/nvidia_uvm \
	/sys/module/nvidia_modeset /sys/module/nvidia_peermem -maxdepth 3 -type f 2>/dev/null); do
	mkdir -p "$D/raw$(dirname "$f")"
	timeout 5 cat "$f" >"$D/raw$f" 2>/dev/null
done
for g in $(grep -l 0x10de /sys/bus/pci/devices/*/vendor 2>/dev/null); do
	dev=$(dirname "$(readlink -f "$g")")
	while [ "$dev" != /sys/devices ] && [ -n "$dev" ]; do
		for f in "$dev"/*; do
			[ -f "$f" ] && [ -r "$f" ] || continue
			case ${f##*/} in resource*|rom|remove|rescan|reset*|uevent) continue ;; esac
			mkdir -p "$D/raw$dev"
			timeout 5 cat "$f" >"$D/raw$f" 2>/dev/null
		done
		dev=$(dirname "$dev")
	done
done

# hostprep, read-only
t hp-version.txt "$HP" --version
for c in conf/hostprep.conf tests/device/h100-vm.conf; do
	b=$(basename "$c" .conf)
	t "hp-check-$b.txt" "$HP" --config "$c" check
	t "hp-check-$b.json" "$HP" --config "$c" --json check
	t "hp-dryrun-$b.txt" "$HP" --config "$c" apply --dry-run
done
t hp-topology.txt "$HP" --config tests/device/h100-vm.conf topology
t hp-topology.json "$HP" --config tests/device/h100-vm.conf --json topology
t hp-rdma.txt "$HP" rdma
t hp-env.txt "$HP" env
t hp-snapshot.txt "$HP" --config tests/device/h100-vm.conf snapshot -o "$D/snapshot.tar.zst"
for i in 1 2 3 4 5; do
	/usr/bin/time -f "%e s %M KiB" "$HP" --config tests/device/h100-vm.conf check >/dev/null 2>>"$D/hp-time.txt"
done

tar -C "$(dirname "$D")" -cJf "$OUT/cap.tar.xz" cap
grep -H . "$D"/probe.txt "$D"/oracle.txt "$D"/hp-check-h100-vm.txt "$D"/hp-topology.txt \
	"$D"/smi-topo.txt "$D"/hp-time.txt "$D"/systemctl.txt | cut -c1-200
ls -la "$OUT"

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write an NVML record (the format of tests/device/nvml-probe and of what a snapshot
records: `[gpuN ]CALL RC [VALUE...]`) for a fake GPU host, healthy unless told otherwise.

Usage: nvml_record.py [options] BDF...   (the GPUs, in NVML's index order)
  --links N            NVLinks per GPU (0: NVML answers NOT_SUPPORTED for link 0)
  --switch BDF,...     the links go to these NVSwitches, round robin (else: --pairs)
  --pairs              GPU 2k and 2k+1 joined directly, every link (an NVLink bridge)
  --down G:L           GPU G's link L inactive (repeatable)
  --fabric G:STATE[:STATUS]  GPU G's fabric state (0 not supported .. 3 completed)
  --fabric-all STATE   every GPU's fabric state (default: 3 with --switch, else 0)
  --clique G:N         GPU G's fabric clique (default 1)
  --line 'gpuN CALL RC ...'  replace that GPU's answer to CALL (repeatable)
"""
import argparse


def nvml_bus(bdf):
    return "0000" + bdf.upper()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gpus", nargs="+")
    ap.add_argument("--links", type=int, default=0)
    ap.add_argument("--switch", default="")
    ap.add_argument("--pairs", action="store_true")
    ap.add_argument("--down", action="append", default=[])
    ap.add_argument("--fabric", action="append", default=[])
    ap.add_argument("--fabric-all", type=int, default=None)
    ap.add_argument("--clique", action="append", default=[])
    ap.add_argument("--line", action="append", default=[])
    ap.add_argument("--driver", default="580.65.06")
    a = ap.parse_args()
    switches = [s for s in a.switch.split(",") if s]
    down = {tuple(int(x) for x in d.split(":")) for d in a.down}
    fab_default = a.fabric_all if a.fabric_all is not None else (3 if switches else 0)
    fabric = {}
    for f in a.fabric:
        p = [int(x) for x in f.split(":")]
        fabric[p[0]] = (p[1], p[2] if len(p) > 2 else 0)
    clique = {int(g): int(n) for g, n in (c.split(":") for c in a.clique)}
    replace = {}
    for l in a.line:
        w = l.split()
        replace[(w[0], w[1])] = l

    out = ["nvmlInit_v2 0", "nvmlSystemGetDriverVersion 0 " + a.driver,
           "nvmlDeviceGetCount_v2 0 %d" % len(a.gpus)]
    for g, bdf in enumerate(a.gpus):
        p = "gpu%d " % g
        lines = [
            p + "nvmlDeviceGetHandleByIndex_v2 0",
            p + "nvmlDeviceGetPciInfo_v3 0 " + nvml_bus(bdf),
            p + "nvmlDeviceGetName 0 NVIDIA H100 80GB HBM3",
            p + "nvmlDeviceGetUUID 0 GPU-%08x-0000-0000-0000-%012x" % (0x5a4f0000 + g, g),
            p + "nvmlDeviceGetVbiosVersion 0 96.00.74.00.11",
            p + "nvmlDeviceGetPersistenceMode 0 1",
            p + "nvmlDeviceGetMigMode 0 0 0",
            p + "nvmlDeviceGetEccMode 0 1 1",
            p + "nvmlDeviceGetRetiredPagesPendingStatus 3",
            p + "nvmlDeviceGetRemappedRows 0 0 0 0 0",
            p + "nvmlDeviceGetTotalEccErrors 0 uncorrected volatile 0",
        ]
        st, status = fabric.get(g, (fab_default, 0))
        lines.append(p + "nvmlDeviceGetGpuFabricInfo 0 state=%d status=%d clique=%d"
                     % (st, status, clique.get(g, 1) if st == 3 else 0))
        if a.links == 0:
            lines.append(p + "nvmlDeviceGetNvLinkState 3 link=0 0")
        for l in range(a.links):
            active = (g, l) not in down
            lines.append(p + "nvmlDeviceGetNvLinkState 0 link=%d %d" % (l, active))
            if not active:
                continue
            if switches:
                typ, far = 2, switches[l % len(switches)]
            else:
                typ, far = 0, a.gpus[g ^ 1] if a.pairs and (g ^ 1) < len(a.gpus) else None
            if far is None:
                continue
            lines.append(p + "nvmlDeviceGetNvLinkRemoteDeviceType 0 link=%d %d" % (l, typ))
            lines.append(p + "nvmlDeviceGetNvLinkRemotePciInfo_v2 0 link=%d %s"
                         % (l, nvml_bus(far)))
        for i, line in enumerate(lines):
            w = line.split()
            key = (w[0], w[1])
            if key in replace and not w[1].startswith("nvmlDeviceGetNvLink"):
                lines[i] = replace.pop(key)
        out += lines
    out += [v for v in replace.values()]
    print("\n".join(out))


if __name__ == "__main__":
    main()

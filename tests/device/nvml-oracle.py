#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The independent reader for nvml-probe: the same questions through NVIDIA's
own Python binding (nvidia-ml-py's pynvml), printed in the same line format,
so the C declarations in src/nvml/nvml-api.h are checked against NVIDIA's."""
import ctypes
import sys

import pynvml as n


def call(pre, name, fn, fmt=str):
    try:
        v = fn()
    except n.NVMLError as e:
        print(f"{pre}{name} {e.value}")
        return
    print(f"{pre}{name} 0 {fmt(v)}".rstrip())


def s(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def gpu(i, h):
    pre = f"gpu{i} "

    def pci():
        p = n.nvmlDeviceGetPciInfo(h)
        return f"{s(p.busId)} 0x{p.pciDeviceId:08x} 0x{p.pciSubSystemId:08x}"
    call(pre, "nvmlDeviceGetPciInfo_v3", pci)
    call(pre, "nvmlDeviceGetName", lambda: s(n.nvmlDeviceGetName(h)))
    call(pre, "nvmlDeviceGetUUID", lambda: s(n.nvmlDeviceGetUUID(h)))
    call(pre, "nvmlDeviceGetVbiosVersion", lambda: s(n.nvmlDeviceGetVbiosVersion(h)))
    call(pre, "nvmlDeviceGetPersistenceMode", lambda: n.nvmlDeviceGetPersistenceMode(h))
    call(pre, "nvmlDeviceGetMigMode", lambda: "%d %d" % tuple(n.nvmlDeviceGetMigMode(h)))
    call(pre, "nvmlDeviceGetEccMode", lambda: "%d %d" % tuple(n.nvmlDeviceGetEccMode(h)))
    for t, tn in ((n.NVML_VOLATILE_ECC, "volatile"), (n.NVML_AGGREGATE_ECC, "aggregate")):
        call(pre, "nvmlDeviceGetTotalEccErrors",
             lambda: "uncorrected %s %d" % (tn, n.nvmlDeviceGetTotalEccErrors(
                 h, n.NVML_MEMORY_ERROR_TYPE_UNCORRECTED, t)))
    call(pre, "nvmlDeviceGetRetiredPagesPendingStatus",
         lambda: n.nvmlDeviceGetRetiredPagesPendingStatus(h))
    call(pre, "nvmlDeviceGetRemappedRows",
         lambda: "%d %d %d %d" % tuple(n.nvmlDeviceGetRemappedRows(h)))

    def fabric():
        f = n.c_nvmlGpuFabricInfo_t()
        n.nvmlDeviceGetGpuFabricInfo(h, ctypes.byref(f))
        return f"state={f.state} status={f.status} clique={getattr(f, 'cliqueId', getattr(f, 'partitionId', -1))}"
    call(pre, "nvmlDeviceGetGpuFabricInfo", fabric)
    for link in range(18):
        call(pre, "nvmlDeviceGetNvLinkState",
             lambda: "link=%d %d" % (link, n.nvmlDeviceGetNvLinkState(h, link)))


def main():
    n.nvmlInit()
    call("", "nvmlSystemGetDriverVersion", lambda: s(n.nvmlSystemGetDriverVersion()))
    call("", "nvmlSystemGetNVMLVersion", lambda: s(n.nvmlSystemGetNVMLVersion()))
    cnt = n.nvmlDeviceGetCount()
    print(f"nvmlDeviceGetCount_v2 0 {cnt}")
    for i in range(cnt):
        gpu(i, n.nvmlDeviceGetHandleByIndex(i))
    n.nvmlShutdown()


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Regenerate the seed corpora in tests/fuzz/corpus/TARGET/ from what the other tiers
already hold: the fake tier's configs and goldens, the unit tests' string literals (the
real /proc/modules lines, bonding files, sysfs values and command lines they quote), and
records sealed like hostprep seals them. Seeds are named seed-*; inputs that found a bug
are named regress-* and are never touched here."""
import glob
import hashlib
import os
import re
import sys
import zlib

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.dirname(os.path.dirname(here))
SEP = "\n%%%\n"


def literals(path):
    """Every C string literal of a file, adjacent ones concatenated, escapes decoded."""
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    out = []
    for run in re.finditer(r'(?:"(?:[^"\\\n]|\\.)*"\s*)+', text):
        parts = re.findall(r'"((?:[^"\\\n]|\\.)*)"', run.group(0))
        s = "".join(parts)
        s = s.encode("latin-1", "backslashreplace").decode("unicode_escape")
        out.append(s)
    return out


def put(target, name, data):
    d = os.path.join(here, "corpus", target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    if not name:
        name = hashlib.sha1(data).hexdigest()[:12]
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data)


def clean(target):
    for p in glob.glob(os.path.join(here, "corpus", target, "seed-*")):
        os.unlink(p)


def seal(body):
    return "%s crc32:%08x" % (body, zlib.crc32(body.encode()))


def read(rel):
    return open(os.path.join(top, rel), encoding="utf-8").read()


def config():
    clean("config")
    files = sorted(glob.glob(os.path.join(top, "tests/fake/configs/*.conf")) +
                   glob.glob(os.path.join(top, "tests/fake/bad-configs/*.conf")) +
                   glob.glob(os.path.join(top, "tests/fake/kmod/bad-configs/*")) +
                   glob.glob(os.path.join(top, "tests/fake/net/bond-bad-configs/*")) +
                   [os.path.join(top, "conf/hostprep.conf")])
    for f in files:
        if os.path.isfile(f):
            put("config", os.path.basename(os.path.dirname(f)) + "-" + os.path.basename(f),
                open(f, encoding="utf-8").read())
    c = lambda n: read("tests/fake/configs/" + n)
    combos = {
        "shipped-etc-dropin": [read("conf/hostprep.conf"), c("gpu-p2p.conf"),
                               c("dropin-nic.conf")],
        "override-same-name": ["", c("audit.conf"), c("gpu-p2p.conf"), c("mask-only.conf"),
                               "", "", read("tests/fake/bad-configs/23-dropin-empties-select.conf")],
        "kmod-rdma-bond": [c("kmod-ofed.conf"), "", c("rdma-ib-gpu.conf"), "",
                           c("bond-lacp.conf"), c("sinks-custom.conf")],
        "validate": [c("gpu-p2p.conf"), "", "", "", "", "", "", "", "", c("audit.conf"),
                     c("dropin-nic.conf")],
    }
    for k, v in combos.items():
        put("config", "multi-" + k, SEP.join(v))


def cmdline():
    clean("cmdline")
    seen = set()
    for s in literals(os.path.join(top, "tests/unit/test_cmdline.c")) + \
            literals(os.path.join(top, "tests/unit/test_acs_cmdline.c")):
        if s not in seen:
            seen.add(s)
            put("cmdline", None, s)
    put("cmdline", "debian", "BOOT_IMAGE=/boot/vmlinuz-6.1.0-27-amd64 "
        "root=UUID=0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0 ro quiet intel_iommu=on iommu=pt "
        "pci=config_acs=\"xx000x0@0000:00:01.0;xx000x0@0000:00:01.0/00.0/08.0\" "
        "module_blacklist=nouveau,erdma -- single")
    put("cmdline", "redir", "ro pci=noaer,disable_acs_redir=0000:00:01.0;pci:10b5:c010 iommu=pt")
    put("cmdline", "quotes", "\"pci=config_acs=1@00:03.0;0@00:04.0\" foo=\"a b\" \xa0x=1")


def header(n):
    """The first line of a record: the number of lines after it."""
    return seal("hostprep-record 2 lines %d" % n) + "\n"


def record():
    clean("record")
    acs = [seal("acs 0000:15:01.0 0x220 0x001d /sys/devices/pci0000:15/0000:15:01.0"),
           seal("acs 0000:17:00.0 0xf24 0x001d /sys/devices/pci0000:15/0000:15:01.0/"
                "0000:16:00.0/0000:17:00.0")]
    files = [seal("file /etc/modprobe.d/hostprep.conf bytes 42 1a2b3c4d 0644"),
             seal("wrote /etc/modprobe.d/hostprep.conf 57 deadbeef"),
             seal("file /etc/modprobe.d/hostprep.conf absent")]
    put("record", "acs", "\n".join(acs) + "\n")
    put("record", "files", "\n".join(files) + "\n")
    put("record", "torn", acs[0] + "\n" + acs[1][:40])
    put("record", "unsigned", "acs 0000:15:01.0 0x220 0x001d\n\n" + acs[1] + "\n")
    put("record", "bad", acs[0].replace("0x001d", "0x001c") + "\n" + acs[1] + " crc32:\n"
        + "acs \x00\xff\n")
    # the whole-file seal: a header counting the lines, whole, cut at a line boundary,
    # with a line too many, and with a damaged header
    put("record", "whole", header(2) + "\n".join(acs) + "\n")
    put("record", "cut", header(2) + acs[0] + "\n")
    put("record", "extra", header(1) + "\n".join(acs) + "\n")
    put("record", "header-damaged", header(2).replace("lines", "linez") + "\n".join(acs) + "\n")
    for s in literals(os.path.join(top, "tests/unit/test_record.c")):
        if "\n" in s or "crc32" in s or s.startswith("acs "):
            put("record", None, s)


def recordlines():
    clean("recordlines")
    grub = "/etc/default/grub.d/50-hostprep-acs.cfg"
    dropin = b'GRUB_CMDLINE_LINUX="$GRUB_CMDLINE_LINUX pci=config_acs=x0x00xx@pci:10b5:8796"\n'
    crc = "%08x" % zlib.crc32(dropin)
    acs = seal("acs 0000:15:01.0 0x220 0x001d /sys/devices/pci0000:15/0000:15:01.0")
    kmod = seal("file /etc/modprobe.d/hostprep.conf absent")
    put("recordlines", "grub-absent", "\n".join([
        acs, seal("file %s absent" % grub), seal("wrote %s %d %s" % (grub, len(dropin), crc)),
        kmod]) + "\n")
    put("recordlines", "grub-bytes", "\n".join([
        seal("file %s bytes 31 0badc0de 0644" % grub),
        seal("wrote %s %d %s" % (grub, len(dropin), crc)), kmod]) + "\n")
    put("recordlines", "grub-damaged", "\n".join([
        seal("file %s absent" % grub)[:-2] + "00", "acs 0000:15:01.0 0x220 0x001d",
        seal("wrote %s %d %s" % (grub, len(dropin), crc)), acs]) + "\n")
    put("recordlines", "grub-whole", header(3) + "\n".join([
        seal("file %s absent" % grub), seal("wrote %s %d %s" % (grub, len(dropin), crc)),
        kmod]) + "\n")
    put("recordlines", "grub-cut", header(3) + seal("file %s absent" % grub) + "\n")
    put("recordlines", "acs-legacy", "acs 0000:15:01.0 0x220 0x001d\n"
        "acs 0000:17:00.0 0xf24 0x001d /sys/devices/pci0000:15\n" + acs + "\n")


def report():
    clean("report")
    for f in sorted(glob.glob(os.path.join(top, "tests/fake/golden/*.json"))):
        put("report", os.path.basename(f)[:-5], open(f, encoding="utf-8").read())


def from_unit(target, tests, extra=()):
    clean(target)
    seen = set()
    for t in tests:
        for s in literals(os.path.join(top, "tests/unit", t)):
            if s not in seen and len(s) < 4096:
                seen.add(s)
                put(target, None, s)
    for s in extra:
        put(target, None, s)


def pcicaps():
    """Config spaces: real ones from the fake fixtures (mkroot.py), and hand-made chains
    with the shapes that break walks: loops, pointers below 0x100 in extended space,
    a capability cut by the end of the space, all-ones, short views."""
    import struct
    import subprocess
    import tempfile
    clean("pcicaps")
    with tempfile.TemporaryDirectory() as tmp:
        for fx, devs in (("dgx8", ["0000:15:01.0", "0000:17:00.0", "0000:16:00.0",
                                   "0000:18:00.0"]),
                         ("dgx8-nonroot", ["0000:15:01.0"]),
                         ("vm-noacs", None)):
            subprocess.run([sys.executable, os.path.join(top, "tests/fake/mkroot.py"), fx,
                            os.path.join(tmp, fx)], check=True)
            base = os.path.join(tmp, fx, "sys/bus/pci/devices")
            for d in devs or sorted(os.listdir(base))[:3]:
                cfg = os.path.join(base, d, "config")
                if os.path.exists(cfg):
                    put("pcicaps", fx + "-" + d.replace(":", "_"), open(cfg, "rb").read())

    def space(ext, classic=None, size=4096, status=0x0010, cap_ptr=0x40):
        b = bytearray(size)
        hdr = struct.pack("<HHHH", 0x8086, 0x1234, 0x0000, status)
        b[0:8] = hdr[:min(8, size)]
        if size > 0x34:
            b[0x34] = cap_ptr
        for off, data in (classic or {0x40: bytes([0x10, 0x00, 0x42, 0x00])}).items():
            b[off:off + len(data)] = data
        for off, (cid, nxt, body) in ext.items():
            b[off:off + 4] = struct.pack("<I", cid | 1 << 16 | nxt << 20)
            b[off + 4:off + 4 + len(body)] = body
        return bytes(b[:size])

    acs = struct.pack("<HH", 0x005f, 0x001d)
    put("pcicaps", "port-aer-acs", space({0x100: (0x0001, 0x148, b""), 0x148: (0x000d, 0, acs)}))
    put("pcicaps", "ext-loop", space({0x100: (0x0001, 0x100, b"")}))
    put("pcicaps", "ext-loop-two", space({0x100: (0x0001, 0x200, b""), 0x200: (0x0002, 0x100, b"")}))
    put("pcicaps", "ext-next-below-0x100", space({0x100: (0x0001, 0x0c0, b"")}))
    put("pcicaps", "acs-cut-by-end", space({0x100: (0x0001, 0xffc, b""), 0xffc: (0x000d, 0, b"")}))
    put("pcicaps", "acs-at-0xff8", space({0x100: (0x0001, 0xff8, b""), 0xff8: (0x000d, 0, acs)}))
    put("pcicaps", "acs-unaligned-next", space({0x100: (0x0001, 0x14b, b""), 0x148: (0x000d, 0, acs)}))
    put("pcicaps", "classic-loop", space({0x100: (0x000d, 0, acs)},
                                         classic={0x40: bytes([0x01, 0x40, 0, 0])}))
    put("pcicaps", "classic-no-pcie", space({0x100: (0x000d, 0, acs)},
                                            classic={0x40: bytes([0x01, 0x00, 0, 0])}))
    put("pcicaps", "no-cap-list", space({0x100: (0x000d, 0, acs)}, status=0))
    put("pcicaps", "conventional-256", space({}, size=256))
    put("pcicaps", "header-only-64", space({}, size=64))
    put("pcicaps", "all-ones", b"\xff" * 4096)
    put("pcicaps", "empty", b"")


def main():
    config()
    cmdline()
    pcicaps()
    record()
    recordlines()
    report()
    from_unit("selector", ["test_selector.c"],
              ["0000:3a:00.0", "3a:00.0", "10b5:8796", "10b5:*", "*:1234", "class:06",
               "class:0604", "class:060400", "upstream:10de:*", "upstream:class:0302",
               "10000:e0:1f.7"])
    from_unit("kmod", ["test_kmod_parse.c"],
              ["ib_core 376832 6 rdma_ucm,rdma_cm,iw_cm,ib_cm,ib_uverbs,mlx5_ib, Live "
               "0xffffffffc0a00000" + SEP + "mlx5_ib",
               "24.10-1.1.4" + SEP + "24.04-0.7.0",
               "kernel/drivers/infiniband/hw/mlx5/mlx5_ib.ko\nkernel/net/bonding/bonding.ko\n"
               + SEP + "bonding",
               "blacklist nouveau", "parm:peer_mem:enable peer memory (int)"])
    from_unit("rdma", ["test_rdma_parse.c"],
              ["400 Gb/sec (4X NDR)", "53.125", "4: ACTIVE", "5: LinkUp", "InfiniBand",
               "fe80:0000:0000:0000:b83f:d203:00a1:c000", "RoCE v2", "1: CA"])
    from_unit("bond", ["test_bond_parse.c", "test_bond_check.c"],
              ["802.3ad 4", "fast 1", "ens1f0np0 ens1f1np1", "61", "N/A", "up"])
    from_unit("workload", ["test_workload.c"],
              ["infinity", "65536", "64K", "8M", "1G", "2T", "231:192", "Y", "N",
               "slurmd.service"])
    from_unit("aer", ["test_aer.c"],
              ["RxErr 10\nBadTLP 2\nBadDLLP 0\nRollover 0\nTimeout 0\nNonFatalErr 0\n"
               "CorrIntErr 0\nHeaderOF 0\nTOTAL_ERR_COR 12\n",
               "Undefined 0\nDLP 0\nSDES 0\nTLP 0\nFCP 0\nCmpltTO 1\nTOTAL_ERR_NONFATAL 1\n",
               "12\n", "off", "1000000000000"])
    from_unit("xid", ["test_xid.c"],
              ["4,812,1234567890,-;NVRM: Xid (PCI:0000:91:00): 79, pid='<unknown>', "
               "name=<unknown>, GPU has fallen off the bus.\n SUBSYSTEM=pci\n",
               "4,1,2,-;nvidia-nvswitch3: SXid (PCI:0000:c6:00.0): 20034, Fatal, Link 30\n",
               "3,2,3,-;pcieport 0000:00:01.0: AER: Uncorrected (Fatal) error received: "
               "0000:01:00.0\n",
               "4,3,4,-;NVRM: Xid (PCI:0000:18:00): 154, GPU recovery action changed from "
               "0x0 (None) to 0x2 (Node Reboot Required)\n"])


if __name__ == "__main__":
    sys.exit(main())

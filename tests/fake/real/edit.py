#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Edit one fact of a PCI function in a fake root, in config space and sysfs alike.

    edit.py ROOT class BDF 0xCCSSPP   class code: config bytes 9-11 and the class file
    edit.py ROOT prog-if BDF 0xPP     programming interface only (0x01: subtractive decode)
    edit.py ROOT bar0 BDF SIZE        BAR 0 of the resource file: SIZE bytes (memory)
    edit.py ROOT ids BDF V:D:CLASS    vendor, device and class ("8086:4940:0b4000")
    edit.py ROOT driver BDF NAME      the driver bound: the driver link and drivers/NAME/BDF
    edit.py ROOT caps BDF LIST        the capability list: "none" (Status.CapList clear),
                                      "pm" (Power Management only), "pcie:N" (PM, then PCI
                                      Express v2 of device/port type N: 0 endpoint, 4 root
                                      port); from 0x50, in a 256-byte config space
"""
import os
import sys


def fn_dir(root, bdf):
    return os.path.realpath(os.path.join(root, "sys/bus/pci/devices", bdf))


def set_class(d, cls):
    with open(os.path.join(d, "config"), "r+b") as f:
        f.seek(9)
        f.write(bytes([cls & 0xff, cls >> 8 & 0xff, cls >> 16 & 0xff]))
    with open(os.path.join(d, "class"), "w") as f:
        f.write("0x%06x\n" % cls)


def get_class(d):
    with open(os.path.join(d, "class")) as f:
        return int(f.read(), 16)


def set_bar0(d, size):
    path = os.path.join(d, "resource")
    lines = open(path).read().splitlines(True)
    start = int(lines[0].split()[0], 16) or 0xd0000000
    lines[0] = "0x%016x 0x%016x 0x%016x\n" % (start, start + size - 1, 0x42208)
    with open(path, "w") as f:
        f.writelines(lines)


def set_file(d, name, text):
    p = os.path.join(d, name)
    if os.path.exists(p):
        os.chmod(p, 0o644)
    with open(p, "w") as f:
        f.write(text)


def set_ids(d, value):
    vendor, device, cls = (int(x, 16) for x in value.split(":"))
    with open(os.path.join(d, "config"), "r+b") as f:
        f.write(vendor.to_bytes(2, "little") + device.to_bytes(2, "little"))
    set_file(d, "vendor", "0x%04x\n" % vendor)
    set_file(d, "device", "0x%04x\n" % device)
    set_class(d, cls)


def set_driver(root, bdf, d, name):
    drv = os.path.join(root, "sys/bus/pci/drivers", name)
    os.makedirs(drv, exist_ok=True)
    link = os.path.join(d, "driver")
    if os.path.lexists(link):
        old = os.path.realpath(link)
        if os.path.lexists(os.path.join(old, bdf)):
            os.unlink(os.path.join(old, bdf))
        os.unlink(link)
    os.symlink(os.path.relpath(drv, d), link)
    os.symlink(os.path.relpath(d, drv), os.path.join(drv, bdf))


def set_caps(d, value):
    with open(os.path.join(d, "config"), "r+b") as f:
        cfg = bytearray(f.read())
        status = cfg[6] | cfg[7] << 8
        if value == "none":
            status &= ~0x10
            cfg[0x34] = 0
        else:
            status |= 0x10
            cfg[0x34] = 0x50
            cfg[0x50:0x58] = bytes([0x01, 0x00, 0x03, 0x00, 0, 0, 0, 0])  # PM v3, last
            if value.startswith("pcie:"):
                cfg[0x51] = 0x60
                cfg[0x60:0x64] = bytes([0x10, 0x00, 0x02 | int(value[5:]) << 4, 0x00])
            elif value != "pm":
                sys.exit("edit.py: unknown capability list %s" % value)
        cfg[6], cfg[7] = status & 0xff, status >> 8
        f.seek(0)
        f.write(cfg)


def main(root, what, bdf, value):
    if what == "caps":
        set_caps(fn_dir(root, bdf), value)
        return 0
    if what == "ids":
        set_ids(fn_dir(root, bdf), value)
        return 0
    if what == "driver":
        set_driver(root, bdf, fn_dir(root, bdf), value)
        return 0
    d, v = fn_dir(root, bdf), int(value, 0)
    if what == "class":
        set_class(d, v)
    elif what == "prog-if":
        set_class(d, get_class(d) & ~0xff | v)
    elif what == "bar0":
        set_bar0(d, v)
    else:
        sys.exit("edit.py: unknown edit %s" % what)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))

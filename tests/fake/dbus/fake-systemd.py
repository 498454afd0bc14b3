#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A stand-in for systemd's manager on a private bus, for hostprep's workload.memlock.

    fake-systemd.py ADDRESS [--deny] UNIT:LOADSTATE:ACTIVESTATE:SOFT:HARD[:MAINPID] ...

Exports what hostprep reads, shaped like systemd's own D-Bus API:
  /org/freedesktop/systemd1  org.freedesktop.systemd1.Manager  GetUnit(s) -> o, LoadUnit(s) -> o
  /org/freedesktop/systemd1/unit/<escaped>  org.freedesktop.DBus.Properties Get/GetAll of
      org.freedesktop.systemd1.Unit     LoadState, ActiveState, Id
      org.freedesktop.systemd1.Service  LimitMEMLOCK, LimitMEMLOCKSoft (t; "infinity" = 2^64-1;
                                        SOFT "-": no LimitMEMLOCKSoft, as older systemd),
                                        MainPID (u; only when MAINPID is given)
A unit not given is what systemd says of a unit without a file: GetUnit fails with
org.freedesktop.systemd1.NoSuchUnit, LoadUnit returns an object with LoadState=not-found.
--deny: every property read fails with org.freedesktop.DBus.Error.AccessDenied.
Prints READY on stdout once it owns org.freedesktop.systemd1.
"""

import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

BUS_NAME = "org.freedesktop.systemd1"
ROOT = "/org/freedesktop/systemd1"
UNIT_IF = "org.freedesktop.systemd1.Unit"
SERVICE_IF = "org.freedesktop.systemd1.Service"
PROPS_IF = "org.freedesktop.DBus.Properties"
INFINITY = 2**64 - 1
DEFAULT_MEMLOCK = 8 * 1024 * 1024  # systemd's default soft=hard 8M


class NoSuchUnit(dbus.DBusException):
    _dbus_error_name = "org.freedesktop.systemd1.NoSuchUnit"


class AccessDenied(dbus.DBusException):
    _dbus_error_name = "org.freedesktop.DBus.Error.AccessDenied"


class UnknownProperty(dbus.DBusException):
    _dbus_error_name = "org.freedesktop.DBus.Error.UnknownProperty"


def escape(name):
    """sd-bus's bus_label_escape(): [A-Za-z0-9] kept, every other byte _xx."""
    return "".join(c if c.isalnum() and c.isascii() else "_%02x" % ord(c) for c in name)


def size(s):
    if s == "-":
        return None
    return INFINITY if s == "infinity" else int(s)


class Unit(dbus.service.Object):
    def __init__(self, bus, name, load, active, soft, hard, main_pid, deny):
        self.path = ROOT + "/unit/" + escape(name)
        super().__init__(bus, self.path)
        self.deny = deny
        self.props = {
            UNIT_IF: {"Id": dbus.String(name), "LoadState": dbus.String(load),
                      "ActiveState": dbus.String(active)},
            SERVICE_IF: {"LimitMEMLOCK": dbus.UInt64(hard)},
        }
        if soft is not None:  # None: a systemd older than the *Soft properties
            self.props[SERVICE_IF]["LimitMEMLOCKSoft"] = dbus.UInt64(soft)
        if main_pid is not None:
            self.props[SERVICE_IF]["MainPID"] = dbus.UInt32(main_pid)

    @dbus.service.method(PROPS_IF, in_signature="ss", out_signature="v")
    def Get(self, interface, prop):
        if self.deny:
            raise AccessDenied("Access denied")
        try:
            return self.props[interface][prop]
        except KeyError:
            raise UnknownProperty("Unknown property %s.%s" % (interface, prop))

    @dbus.service.method(PROPS_IF, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        if self.deny:
            raise AccessDenied("Access denied")
        return self.props.get(interface, {})


class Manager(dbus.service.Object):
    def __init__(self, bus, units, deny):
        super().__init__(bus, ROOT)
        self.bus = bus
        self.deny = deny
        self.units = {}
        for name, spec in units.items():
            self.units[name] = Unit(bus, name, *spec, deny)

    @dbus.service.method("org.freedesktop.systemd1.Manager", in_signature="s",
                         out_signature="o")
    def GetUnit(self, name):
        if name not in self.units:
            raise NoSuchUnit("Unit %s not loaded." % name)
        return dbus.ObjectPath(self.units[name].path)

    @dbus.service.method("org.freedesktop.systemd1.Manager", in_signature="s",
                         out_signature="o")
    def LoadUnit(self, name):
        if name not in self.units:
            self.units[name] = Unit(self.bus, name, "not-found", "inactive",
                                    DEFAULT_MEMLOCK, DEFAULT_MEMLOCK, None, self.deny)
        return dbus.ObjectPath(self.units[name].path)


def main(argv):
    address = argv[1]
    deny = "--deny" in argv[2:]
    units = {}
    for arg in argv[2:]:
        if arg == "--deny":
            continue
        name, load, active, soft, hard, *pid = arg.split(":")
        units[name] = (load, active, size(soft), size(hard), int(pid[0]) if pid else None)
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(address)
    name = dbus.service.BusName(BUS_NAME, bus)  # noqa: F841 (held for the process' life)
    Manager(bus, units, deny)
    print("READY", flush=True)
    GLib.MainLoop().run()


if __name__ == "__main__":
    main(sys.argv)

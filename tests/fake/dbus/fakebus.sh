# SPDX-License-Identifier: GPL-2.0-or-later
# A private D-Bus daemon with a fake systemd on it, for cases that read unit properties.
# Source it from a case (after lib.sh):
#
#   . "$HERE/dbus/fakebus.sh"
#   fakebus_start UNIT:LOADSTATE:ACTIVESTATE:SOFT:HARD ... [--deny] || return
#   HP_ENV=(DBUS_SYSTEM_BUS_ADDRESS=$FAKEBUS_ADDRESS); hp ...
#   fakebus_stop   (also run on exit)
#
# Needs dbus-daemon and a python3 with the dbus and gi modules (Debian: dbus-daemon,
# python3-dbus, python3-gi). Without them fakebus_start prints a SKIPPED line and fails.

FAKEBUS_PIDS=()

fakebus_python() {
	local py
	for py in python3 /usr/bin/python3; do
		if command -v "$py" >/dev/null 2>&1 &&
			"$py" -c 'import dbus, dbus.mainloop.glib; from gi.repository import GLib' 2>/dev/null; then
			echo "$py"
			return 0
		fi
	done
	return 1
}

fakebus_stop() {
	local p
	for p in "${FAKEBUS_PIDS[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	FAKEBUS_PIDS=()
}

fakebus_start() {
	local py i dir=$T/fakebus
	fakebus_stop
	if ! command -v dbus-daemon >/dev/null 2>&1 || ! py=$(fakebus_python); then
		echo "SKIPPED $(basename "$T"): needs dbus-daemon, python3-dbus and python3-gi"
		return 1
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	FAKEBUS_ADDRESS="unix:path=$dir/bus"
	cat >"$dir/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <listen>$FAKEBUS_ADDRESS</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
CONF
	dbus-daemon --config-file="$dir/bus.conf" --nofork --nopidfile >"$dir/daemon.log" 2>&1 &
	FAKEBUS_PIDS+=($!)
	for i in $(seq 100); do
		[ -S "$dir/bus" ] && break
		sleep 0.05
	done
	"$py" "$HERE/dbus/fake-systemd.py" "$FAKEBUS_ADDRESS" "$@" >"$dir/systemd.out" 2>"$dir/systemd.err" &
	FAKEBUS_PIDS+=($!)
	for i in $(seq 200); do
		grep -q READY "$dir/systemd.out" 2>/dev/null && break
		sleep 0.05
	done
	if ! grep -q READY "$dir/systemd.out"; then
		fail "fake systemd did not start: $(cat "$dir/daemon.log" "$dir/systemd.err")"
		fakebus_stop
		return 1
	fi
	trap fakebus_stop EXIT
	return 0
}

#!/bin/bash
# Runs from the initramfs, chrooted into the guest's root filesystem, before
# systemd starts: the scenario's guest_prep BOOT (1, or 2.. on a reboot of the
# same disk). Only bash and the root filesystem's tools; no /proc, /sys.
S=/mnt/vmtest
set -u
. "$S/lib.sh"
. "$S/scenario.sh"
boot=$(cat "$S/boot" 2>/dev/null || echo 1)
t0=$EPOCHREALTIME
echo "guest_prep (boot $boot)"
guest_prep "$boot"
rc=$?
echo "guest_prep returned $rc ($(bc_sub "$EPOCHREALTIME" "$t0") s)"
exit $rc

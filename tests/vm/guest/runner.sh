#!/bin/bash
# Guest side of one scenario (started by vmtest-runner.service from the 9p
# share): wait for boot to finish, run guest_check, write the exit status and
# logs back to the share, power off.
S=/mnt/vmtest
# boot number: 1, or 2.. when the scenario reboots the same disk (REBOOTS=N);
# boot N>1 runs guest_check_bootN and appends to guest.log
BOOT=$(cat "$S/boot" 2>/dev/null || echo 1)
exec >>"$S/runner.log" 2>&1
state=$(timeout 90 systemctl is-system-running --wait 2>&1)
echo "system state: $state"
CHECK=guest_check
[ "$BOOT" -gt 1 ] && CHECK=guest_check_boot$BOOT
[ "$BOOT" -gt 1 ] || : >"$S/guest.log"
{
	echo "==== boot $BOOT: $CHECK"
	echo "system state after boot: $state"
	echo "kernel: $(uname -r)  cmdline: $(cat /proc/cmdline)"
	[ -f "$S/prep.log" ] && sed 's/^/# prep: /' "$S/prep.log"
	cd /tmp || exit
	. "$S/lib.sh"
	. "$S/host-env.sh"
	. "$S/scenario.sh"
	$CHECK
	rc=$?
	# a check that asserted nothing proved nothing: it fails
	if [ "$VMT_CHECKS" -eq 0 ]; then
		echo "FAIL - $CHECK made no assertion (no ok/fail/assert_* ran)"
		[ $rc -eq 0 ] && rc=1
	fi
	echo "# $VMT_CHECKS checks, $VMT_FAILS failed, $CHECK returned $rc"
	[ "$VMT_FAILS" -gt 0 ] && [ $rc -eq 0 ] && rc=1
	echo $rc >"$S/rc.tmp"
} >>"$S/guest.log" 2>&1
journalctl -b --no-pager -o short-monotonic >"$S/journal.txt" 2>&1
systemctl --no-pager --failed >>"$S/guest.log" 2>&1
mv "$S/rc.tmp" "$S/rc"
sync
systemctl poweroff -ff

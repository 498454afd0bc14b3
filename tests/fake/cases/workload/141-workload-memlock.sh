# workload.memlock read over D-Bus from a fake systemd on a private bus: containerd at
# systemd's default 8M fails naming the drop-in that fixes it, kubelet at infinity
# passes, docker (no unit file) is skipped, cri-o's soft limit is what counts; no bus,
# a bus that refuses, and --root without a bus address are unknown, never pass.
. "$HERE/dbus/fakebus.sh"
newroot workload-ib
printf '[Workload]\nMinMemlock=64M\n' >"$R/etc/hostprep/hostprep.conf"

if fakebus_start containerd.service:loaded:active:8388608:8388608 \
	kubelet.service:loaded:active:infinity:infinity \
	crio.service:loaded:inactive:65536:infinity; then
	HP_ENV=(DBUS_SYSTEM_BUS_ADDRESS=$FAKEBUS_ADDRESS)
	hp --json check
	expect_rc 1
	v() { jqo ".results[] | select(.check==\"workload.memlock\" and .object==\"$1\") | .$2"; }
	[ "$(v containerd.service verdict)" = fail ] || fail "containerd at 8M: $(v containerd.service verdict), want fail"
	v containerd.service actual | grep -q 'LimitMEMLOCK=8M' || fail "containerd: actual does not say 8M: $(v containerd.service actual)"
	v containerd.service remedy >"$T/remedy"
	expect_grep remedy '/etc/systemd/system/containerd\.service\.d/50-memlock\.conf' "the remedy does not name the drop-in"
	expect_grep remedy 'LimitMEMLOCK=infinity' "the remedy does not say LimitMEMLOCK=infinity"
	expect_grep remedy 'systemctl daemon-reload && systemctl restart containerd\.service' "the remedy does not restart containerd"
	[ "$(v kubelet.service verdict)" = pass ] || fail "kubelet at infinity: $(v kubelet.service verdict), want pass"
	[ "$(v docker.service verdict)" = skip ] || fail "docker not installed: $(v docker.service verdict), want skip"
	v docker.service actual | grep -q 'not installed' || fail "docker: actual does not say not installed"
	[ "$(v crio.service verdict)" = fail ] || fail "crio soft 64K hard infinity: $(v crio.service verdict), want fail"
	v crio.service actual | grep -q '64K:infinity' || fail "crio: actual does not show soft:hard"
	golden workload-memlock.json
	hp check
	golden workload-memlock.txt

	# MinMemlock=infinity: 8M fails, infinity still passes; MinMemlock=8M: containerd passes.
	printf '[Workload]\nMinMemlock=infinity\nMemlockUnits=containerd.service kubelet.service\n' \
		>"$R/etc/hostprep/hostprep.conf"
	hp --json check
	[ "$(v containerd.service verdict),$(v kubelet.service verdict)" = fail,pass ] ||
		fail "MinMemlock=infinity: $(v containerd.service verdict),$(v kubelet.service verdict), want fail,pass"
	printf '[Workload]\nMinMemlock=8M\nMemlockUnits=containerd.service\n' >"$R/etc/hostprep/hostprep.conf"
	hp --json check
	expect_rc 0
	[ "$(v containerd.service verdict)" = pass ] || fail "MinMemlock=8M, containerd 8M: not pass"

	# A systemd without LimitMEMLOCKSoft: the hard limit is the soft one.
	printf '[Workload]\nMinMemlock=64M\nMemlockUnits=containerd.service\n' >"$R/etc/hostprep/hostprep.conf"
	fakebus_start containerd.service:loaded:active:-:8388608
	HP_ENV=(DBUS_SYSTEM_BUS_ADDRESS=$FAKEBUS_ADDRESS)
	hp --json check
	[ "$(v containerd.service verdict)" = fail ] || fail "no Soft property, hard 8M: $(v containerd.service verdict), want fail"
	v containerd.service actual | grep -q 'LimitMEMLOCK=8M (active)' || fail "no Soft property: $(v containerd.service actual)"

	# daemon-reload without a restart: the unit says infinity, its running process (and so
	# every pod it starts) still has 8M (an audit found it passing); restarted, it passes
	mkdir -p "$R/proc/1234"
	limits() {
		printf 'Limit                     Soft Limit           Hard Limit           Units     \n'
		printf 'Max locked memory         %-20s %-20s bytes     \n' "$1" "$1"
	}
	limits 8388608 >"$R/proc/1234/limits"
	fakebus_start containerd.service:loaded:active:infinity:infinity:1234
	HP_ENV=(DBUS_SYSTEM_BUS_ADDRESS=$FAKEBUS_ADDRESS)
	hp --json check
	expect_rc 1
	[ "$(v containerd.service verdict)" = fail ] || fail "not restarted: $(v containerd.service verdict), want fail"
	v containerd.service actual | grep -q '^LimitMEMLOCK=infinity (active), but its running process (MainPID 1234) has 8M, below MinMemlock=64M' ||
		fail "not restarted: $(v containerd.service actual)"
	[ "$(v containerd.service remedy)" = "systemctl restart containerd.service (its running process keeps the limit it started with)" ] ||
		fail "not restarted: remedy $(v containerd.service remedy)"
	limits unlimited >"$R/proc/1234/limits"
	hp --json check
	expect_rc 0
	[ "$(v containerd.service verdict)" = pass ] || fail "restarted: $(v containerd.service verdict), want pass"

	# A bus that answers "access denied": unknown with the reason.
	fakebus_start containerd.service:loaded:active:infinity:infinity --deny
	HP_ENV=(DBUS_SYSTEM_BUS_ADDRESS=$FAKEBUS_ADDRESS)
	hp --json check
	expect_rc 1
	[ "$(v containerd.service verdict)" = unknown ] || fail "access denied: $(v containerd.service verdict), want unknown"
	v containerd.service actual | grep -qi 'access denied' || fail "access denied: the reason is not given"
	fakebus_stop
fi

# No daemon at the address: unknown, naming the address.
printf '[Workload]\nMinMemlock=64M\n' >"$R/etc/hostprep/hostprep.conf"
HP_ENV=(DBUS_SYSTEM_BUS_ADDRESS=unix:path=$T/no-such-bus)
hp --json check
expect_rc 1
[ "$(jqo '[.results[] | select(.check=="workload.memlock") | .verdict] | unique | join(",")')" = unknown ] ||
	fail "no bus: memlock verdicts are not all unknown"
jqo '.results[] | select(.check=="workload.memlock") | .actual' | head -1 | grep -q 'cannot connect to the system bus' ||
	fail "no bus: the reason is not given"

# --root and no bus address: the machine's own bus is not that host's.
HP_ENV=(-u DBUS_SYSTEM_BUS_ADDRESS)
hp --json check
expect_rc 1
[ "$(jqo '[.results[] | select(.check=="workload.memlock") | .actual] | unique | join(",")' | cut -c1-25)" = "no system bus under --roo" ] ||
	fail "--root without a bus address: $(jqo '[.results[] | select(.check=="workload.memlock")][0].actual')"
true

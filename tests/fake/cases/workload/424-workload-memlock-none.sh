# Declared means checked (issue 25 §3, the class of "a rule that selects nothing"):
# [Workload] MinMemlock= over MemlockUnits= none of which is installed (or all masked)
# checked nothing and said only "skip", yet the run was READY. Now a host result fails.
. "$HERE/dbus/fakebus.sh"
newroot workload-ib
none() { jqo '[.results[] | select(.check=="workload.memlock" and .object=="host") | .verdict + "|" + .actual] | join(";")'; }
if fakebus_start containerd.service:loaded:active:infinity:infinity \
	crio.service:masked:inactive:65536:65536; then
	HP_ENV=(DBUS_SYSTEM_BUS_ADDRESS=$FAKEBUS_ADDRESS)
	# one unit, not installed
	printf '[Workload]\nMinMemlock=64M\nMemlockUnits=docker.service\n' >"$R/etc/hostprep/hostprep.conf"
	hp --json check
	expect_rc 1
	case $(none) in "fail|none of MemlockUnits= is installed (or all are masked): MinMemlock= checks nothing here") ;;
	*) fail "the only unit not installed: '$(none)'" ;; esac
	# not installed and masked: still nothing checked
	printf '[Workload]\nMinMemlock=64M\nMemlockUnits=docker.service crio.service\n' >"$R/etc/hostprep/hostprep.conf"
	hp --json check
	expect_rc 1
	case $(none) in fail\|*) ;; *) fail "not installed + masked: '$(none)'" ;; esac
	# one installed unit among them: it is checked, no host result
	printf '[Workload]\nMinMemlock=64M\nMemlockUnits=docker.service containerd.service\n' >"$R/etc/hostprep/hostprep.conf"
	hp --json check
	expect_rc 0
	[ -z "$(none)" ] || fail "an installed unit checked, yet: $(none)"
	fakebus_stop
fi
true

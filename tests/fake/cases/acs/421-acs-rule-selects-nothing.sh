# An admin's rule that selects nothing fails (issue 25 §3): [ACS:plx] Select=10b5:* on an
# HGX board whose switches are Broadcom (1000:c030) said "skip ... selects no port" and
# NOTHING DECLARED, exit 0, while NCCL went through the root complex. Only the vendor's
# own selection may be idle, or a rule that says AllowNone=yes (configs shared across
# host types). The same class elsewhere: [Links] Select= and [Topology] Accelerators=/
# NICs= that match nothing.
rule() { jqo "[.results[] | select(.check==\"acs\" and .object==\"rule $1\") | .verdict + \"|\" + .actual] | join(\";\")"; }
newroot dgx8
printf '[ACS:plx]\nSelect=10b5:*\n' >"$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 1
expect_grep out '^FAIL +acs +rule plx +selects ports +selects no port on this host$'
expect_grep out '^NOT READY: 1 fail'
hp --json check
expect_rc 1
jqo '.results[] | select(.object=="rule plx") | .remedy' >"$T/remedy"
expect_grep remedy 'fix Select= of \[ACS:plx\] \(PCI bridges here: 8086:352a x5, 1000:c030 x16\)' "the remedy does not name this host's bridges"
expect_grep remedy 'AllowNone=yes' "the remedy does not name AllowNone=yes"
# the plan says it too, text and JSON
hp apply --dry-run
expect_rc 0
expect_grep out '^  rule plx selects no port on this host: fails \(an admin.s Select=; AllowNone=yes allows none\)$'
hp --json apply --dry-run
[ "$(jqo '.plan.idle_rules | join(",")'),$(jqo '.plan.idle_rules_failing | join(",")')" = plx,plx ] ||
	fail "dry-run JSON idle: $(jqo '.plan.idle_rules'), failing $(jqo '.plan.idle_rules_failing')"
# AllowNone=yes: a skip that says why, and nothing declared
printf '[ACS:plx]\nSelect=10b5:*\nAllowNone=yes\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
expect_rc 0
[ "$(rule plx)" = "skip|selects no port on this host (AllowNone=yes)" ] || fail "AllowNone=yes: $(rule plx)"
hp --json apply --dry-run
[ "$(jqo '.plan.idle_rules | join(",")')|$(jqo '.plan.idle_rules_failing | join(",")')" = "plx|" ] ||
	fail "AllowNone=yes dry-run: $(jqo '.plan.idle_rules_failing')"
# AllowNone=no said explicitly is the same as the admin's default
printf '[ACS:plx]\nSelect=10b5:*\nAllowNone=no\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
case $(rule plx) in fail\|*) ;; *) fail "AllowNone=no: $(rule plx)" ;; esac
# a rule that picks only endpoints without ACS (the GPUs, not the ports above them) is idle
printf '[ACS:gpus]\nSelect=10de:*\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
expect_rc 1
[ "$(rule gpus)" = "fail|selects no port on this host: 8 functions, none a port or with ACS" ] || fail "Select=10de:*: $(rule gpus)"
jqo '.results[] | select(.object=="rule gpus") | .remedy' | grep -q 'upstream:SELECTOR takes the ports above devices' ||
	fail "Select=10de:*: the remedy does not point at upstream:"
# ... while a bridge without ACS is a port: selected, its own skip says why
printf '[ACS:usp]\nSelect=0000:16:00.0\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
[ -z "$(rule usp)" ] || fail "a switch upstream port (no ACS) counted as nothing: $(rule usp)"
# Exclude= that removes every pick leaves the rule idle
printf '[ACS:all]\nSelect=1000:c030\nExclude=1000:c030\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
case $(rule all) in fail\|*) ;; *) fail "everything excluded: $(rule all)" ;; esac
# several rules: only the idle one fails, the other is judged as ever
printf '[ACS:plx]\nSelect=10b5:*\n[ACS:ok]\nSelect=0000:17:00.0\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
[ "$(rule plx)" != "" ] && [ "$(jqo '[.results[] | select(.object=="0000:17:00.0") | .verdict] | join(",")')" = fail ] ||
	fail "two rules: plx '$(rule plx)', 17:00.0 $(jqo '[.results[] | select(.object=="0000:17:00.0") | .verdict] | join(",")')"
# config shows the key with its origin; --config reads it back
printf '[ACS:plx]\nSelect=10b5:*\nAllowNone=yes\n' >"$R/etc/hostprep/hostprep.conf"
hp config
expect_grep out '^AllowNone=yes$'

# The vendor's own rule (the shipped p2p: rule) may be idle: a VM without switches
newroot vm-noacs
install -D -m 0644 "$HERE/../../conf/hostprep.conf" "$R/usr/lib/hostprep/hostprep.conf"
hp --json check
expect_rc 0
[ "$(rule gpu-paths)" = "skip|selects no port on this host" ] || fail "vendor rule idle: $(rule gpu-paths)"
# declared by the admin (a key of theirs) but not their selection: still allowed
printf '[ACS:gpu-paths]\nEnabled=yes\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
expect_rc 0
[ "$(rule gpu-paths)" = "skip|selects no port on this host" ] || fail "vendor rule declared: $(rule gpu-paths)"
# a Select= of the admin's makes it their selection
printf '[ACS:gpu-paths]\nSelect=10b5:*\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
expect_rc 1
case $(rule gpu-paths) in fail\|*) ;; *) fail "vendor rule + admin Select=: $(rule gpu-paths)" ;; esac
# and AllowNone=no from the admin makes the vendor's selection count
printf '[ACS:gpu-paths]\nAllowNone=no\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
expect_rc 1
case $(rule gpu-paths) in fail\|*) ;; *) fail "vendor rule + AllowNone=no: $(rule gpu-paths)" ;; esac

# [Links] Select= that matches nothing fails; the built-in set may be empty
newroot dgx8
printf '[Links]\nSelect=10b5:*\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
expect_rc 1
[ "$(jqo '[.results[] | select(.check=="pcie.link" and .object=="host") | .verdict + "|" + .actual] | join(";")')" = "fail|Select= matches no PCI function" ] ||
	fail "[Links] Select= idle: $(jqo '[.results[] | select(.check=="pcie.link")] | .[0]')"
# [Topology] Accelerators= that matches nothing makes ExpectP2P=gpu:gpu check nothing: fail
printf '[Topology]\nAccelerators=10b5:*\nExpectP2P=gpu:gpu\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
expect_rc 1
[ "$(jqo '[.results[] | select(.check=="topology.p2p") | .verdict + "|" + .actual] | join(";")')" = "fail|Accelerators= matches no device (ExpectP2P=gpu:gpu)" ] ||
	fail "[Topology] Accelerators= idle: $(jqo '[.results[] | select(.check=="topology.p2p")] | .[0]')"
printf '[Topology]\nNICs=10b5:*\nExpectP2P=gpu:nic-nearest\n' >"$R/etc/hostprep/hostprep.conf"
hp --json check
[ "$(jqo '[.results[] | select(.check=="topology.p2p") | .verdict + "|" + .actual] | join(";")')" = "fail|NICs= matches no device (ExpectP2P=gpu:nic-nearest)" ] ||
	fail "[Topology] NICs= idle: $(jqo '[.results[] | select(.check=="topology.p2p")] | .[0]')"

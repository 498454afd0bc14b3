# issue 17 item 8: a FIFO where a file is read never blocks a run. Every read opens
# O_NONBLOCK and checks the type before reading: a FIFO as a device's config,
# /proc/cmdline, either originals record or report.json makes apply/check/revert/status
# fail or degrade cleanly and promptly. Every run under timeout, so a hang is a failure.
HP_ENV=(timeout -k 2 10)
port=0000:15:01.0

# hung WHAT: the last run was killed by the timeout
hung() { [ "$RC" = 124 ] || [ "$RC" = 137 ]; }

# 1. a device's config is a FIFO: that device is refused, the rest is checked
newroot dgx8
useconf gpu-p2p
cfg=$R/$(cfgpath $port)
rm -f "$cfg"
mkfifo "$cfg"
hp --json check
hung && fail "check hung on a FIFO config"
expect_rc 1
[ "$(jqo "[.results[] | select(.object == \"$port\")][0].verdict")" = fail ] ||
	fail "check: the port with a FIFO config is not a FAIL"
[ "$(jqo "[.results[] | select(.check == \"acs\" and .object != \"$port\")] | length")" -gt 0 ] ||
	fail "check: nothing else was checked"
expect_grep err "PCI device $port: config is not a regular file" "check: the FIFO config is not named"
hp -v apply
hung && fail "apply hung on a FIFO config"
[ -p "$cfg" ] || fail "the FIFO config was replaced"
expect_no_grep "$R/run/hostprep/acs-originals" "^acs $port " "the record names the port with a FIFO config"
hp -v revert
hung && fail "revert hung on a FIFO config"

# 2. /proc/cmdline is a FIFO: the run goes on, says it cannot read it
newroot dgx8
rm -f "$R/proc/cmdline"
mkfifo "$R/proc/cmdline"
hp -v check
hung && fail "check hung on a FIFO /proc/cmdline"
expect_grep err "Failed to read .*/proc/cmdline" "check: the unreadable /proc/cmdline is not reported"

# 3. either originals record is a FIFO: apply and revert fail cleanly, never hang. Apply
# reads the run's record before any write (an ACS-only apply has no use for the
# persistent one); revert reads both.
for rec in run/hostprep/acs-originals var/lib/hostprep/originals; do
	newroot dgx8
	useconf gpu-p2p
	mkdir -p "$(dirname "$R/$rec")"
	mkfifo "$R/$rec"
	hp -v apply
	hung && fail "apply hung on a FIFO $rec"
	if [ "$rec" = run/hostprep/acs-originals ]; then
		[ "$RC" = 0 ] && fail "apply succeeded with a FIFO $rec"
		expect_grep out "cannot read the originals record: File descriptor in bad state" "apply: the FIFO record is not the reason"
		[ "$(peek16 $port 0x226)" = 001d ] || fail "a port was written with a FIFO $rec"
	fi
	[ -p "$R/$rec" ] || fail "apply replaced the FIFO $rec"
	hp -v revert
	hung && fail "revert hung on a FIFO $rec"
	[ "$RC" = 0 ] && fail "revert succeeded with a FIFO $rec"
	expect_grep out "cannot read .*originals.*File descriptor in bad state|cannot read the originals record" "revert: the FIFO record is not the reason"
done

# 4. report.json is a FIFO: status (node-problem-detector, unprivileged) says not ready, fast
newroot dgx8
mkdir -p "$R/run/hostprep"
mkfifo "$R/run/hostprep/report.json"
hp -v status
hung && fail "status hung on a FIFO report.json"
expect_rc 1
expect_grep err "Cannot use the last report" "status: the unreadable report is not reported"

# 5. a FIFO where a directory is listed: not opened as one
newroot dgx8
rm -rf "$R/sys/kernel/iommu_groups"
mkfifo "$R/sys/kernel/iommu_groups"
rm -f "$R/sys/bus/pci/devices/$port"
mkfifo "$R/sys/bus/pci/devices/$port"
hp -v check
hung && fail "check hung on FIFOs where directories are listed"
case $RC in 0 | 1) ;; *) fail "check: exit $RC with FIFOs where directories are listed" ;; esac

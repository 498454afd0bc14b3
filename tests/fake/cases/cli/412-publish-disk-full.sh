# Issue 25 item 3: a verdict that cannot be written takes the last one with it. Before the
# fix a check that found the host NOT READY on a full /run warned "Failed to write the
# report file, ignoring: No space left on device" and the old READY stayed for status and
# the gates (and the same for the metrics and NFD files on a full /var or /etc). Now each
# artifact that cannot be replaced is removed (unlinking needs no space): no report is
# NOT READY to every reader. The disk is full through the crash tier's shim (ENOSPC).
. "$HERE/lib-sinks.sh"
need_tool cc
cc -shared -fPIC -O2 -o "$T/crashshim.so" "$HERE/../crash/crashshim.c" -ldl 2>"$T/cc.err" ||
	fail "cannot build crashshim.so: $(cat "$T/cc.err")"
newroot ib-gpu
useconf publish-all
sink_dirs
P=$R/$PROM_DIR/hostprep.prom
N=$R/$NFD_DIR/hostprep
F=$R/run/hostprep/report.json
hp apply
expect_rc 0
hp status
expect_rc 0
# a hotplug reset one port's ACS: the host is NOT READY now
poke16 0000:15:01.0 $((0x220 + 6)) 0x001d
full() { # $1: the paths that are full (CRASH_ENOSPC), then hostprep's arguments
	local where=$1
	shift
	HP_ENV=(LD_PRELOAD="$T/crashshim.so" CRASH_ROOT="$(realpath "$R")" CRASH_ENOSPC="$where")
	hp "$@"
	HP_ENV=()
}

# 1. /run/hostprep full: no report (status NOT READY), no rdma.env; the metrics and NFD
#    files, on other file systems, carry the new verdict (a check keeps gpus.json)
full /run/hostprep/ check
expect_rc 1
expect_grep err 'Failed to publish the report, removing the last one: No space left on device'
[ ! -e "$F" ] || fail "the READY report stays on a full /run: $(jq -c '{ready, command}' "$F")"
[ ! -e "$R/run/hostprep/rdma.env" ] || fail "rdma.env of the last verdict stays on a full /run"
[ -z "$(find "$R/run/hostprep" -name '*.tmp-*')" ] || fail "temp files left: $(ls -A "$R/run/hostprep")"
hp status
expect_rc 1
expect_grep "$P" '^hostprep_ready 0$'
expect_grep "$N" '^feature.node.kubernetes.io/hostprep.ready=false$'

# 2. the metrics and NFD directories full after a READY apply: those files go, the
#    report (its own file system) is written
hp apply
expect_rc 0
poke16 0000:15:01.0 $((0x220 + 6)) 0x001d
full "/$PROM_DIR/,/$NFD_DIR/" check
expect_rc 1
expect_grep err "Failed to write '.*hostprep\.prom', removing it: No space left on device"
[ ! -e "$P" ] || fail "the metrics of the last verdict stay on a full disk: $(grep ready "$P")"
[ ! -e "$N" ] || fail "the NFD file of the last verdict stays on a full disk: $(head -1 "$N")"
[ -z "$(find "$R/$PROM_DIR" "$R/$NFD_DIR" -name '*.tmp-*')" ] || fail "temp files left in the sink directories"
hp status
expect_rc 1
[ "$(jq -r .ready "$F")" = false ] || fail "the report was not replaced"

# 3. room again: the next run publishes everything
hp check
expect_rc 1
for f in "$F" "$P" "$N" "$R/run/hostprep/rdma.env"; do
	[ -f "$f" ] || fail "$f not written once there is room"
done

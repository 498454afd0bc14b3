# local_cpulist is the node's CPU mask, not the device's (pci-sysfs prints
# cpumask_of_node(dev_to_node(dev)), the online CPUs for NUMA_NO_NODE): the topology reads
# it once per node it sees; a node whose read failed is read again at its next endpoint;
# an endpoint whose node cannot be read reads its own. Oracle: strace's opens of the file.
need_tool strace
# LeakSanitizer cannot run under ptrace (its fatal error is the sanitizer exit status)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
topo_traced() {
	strace -f -qq -o "$T/strace" -e trace=openat,openat2 \
		"$BIN" --root "$R" --no-color --json topology >"$T/out" 2>"$T/err"
	RC=$?
	expect_rc 0
	OPENS=$(grep -c '"local_cpulist"' "$T/strace")
}
cpus_of() { jqo --arg a "$1" '.devices[] | select(.address == $a) | .cpulist'; }

newroot dgx8 # 8 GPUs, 4 NICs on nodes 0 and 1
topo_traced
[ "$OPENS" = 2 ] || fail "local_cpulist opened $OPENS times for 2 nodes"
[ "$(jqo -c '[.devices[] | select(.numa_node == 0) | .cpulist] | unique')" = '["0-55,112-167"]' ] ||
	fail "node 0: $(jqo -c '[.devices[] | select(.numa_node == 0) | .cpulist]')"
[ "$(jqo -c '[.devices[] | select(.numa_node == 1) | .cpulist] | unique')" = '["56-111,168-223"]' ] ||
	fail "node 1: $(jqo -c '[.devices[] | select(.numa_node == 1) | .cpulist]')"
[ "$(jqo '[.devices[] | select(.cpulist == null)] | length')" = 0 ] || fail "a device without cpulist"

D=$R/sys/bus/pci/devices
rm "$D/0000:18:00.0/local_cpulist"                  # GPU0: node 0's first read fails
echo -1 >"$D/0000:1a:00.0/numa_node"                  # NIC0, NIC1: NUMA_NO_NODE
echo 0-223 >"$D/0000:1a:00.0/local_cpulist"
echo -1 >"$D/0000:3c:00.0/numa_node"
echo 5-6 >"$D/0000:3c:00.0/local_cpulist"           # not read: NIC0's answers node -1
echo 5-6 >"$D/0000:9b:00.0/local_cpulist"           # GPU5: GPU4 answered node 1
rm "$D/0000:bc:00.0/numa_node"                      # NIC3: node unknown, reads its own
echo 56-111 >"$D/0000:bc:00.0/local_cpulist"
topo_traced
[ "$OPENS" = 5 ] || fail "local_cpulist opened $OPENS times (GPU0 failed, GPU1, NIC0, GPU4, NIC3)"
[ "$(cpus_of 0000:18:00.0)" = null ] || fail "GPU0 without local_cpulist: $(cpus_of 0000:18:00.0)"
[ "$(cpus_of 0000:19:00.0)" = 0-55,112-167 ] || fail "GPU1 read node 0 again: $(cpus_of 0000:19:00.0)"
[ "$(cpus_of 0000:3a:00.0)" = 0-55,112-167 ] || fail "GPU2: $(cpus_of 0000:3a:00.0)"
[ "$(cpus_of 0000:1a:00.0)" = 0-223 ] || fail "NIC0 (node -1): $(cpus_of 0000:1a:00.0)"
[ "$(cpus_of 0000:3c:00.0)" = 0-223 ] || fail "NIC1 (node -1): $(cpus_of 0000:3c:00.0)"
[ "$(cpus_of 0000:9b:00.0)" = 56-111,168-223 ] || fail "GPU5 (node 1): $(cpus_of 0000:9b:00.0)"
[ "$(cpus_of 0000:bc:00.0)" = 56-111 ] || fail "NIC3 (node unknown): $(cpus_of 0000:bc:00.0)"
[ "$(jqo '.devices[] | select(.address == "0000:bc:00.0") | .numa_node')" = null ] ||
	fail "NIC3 numa_node not null"
true

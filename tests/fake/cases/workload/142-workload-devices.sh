# workload.devices: /dev/infiniband nodes against sysfs' dev attributes and the kernel's
# modes (uverbs, rdma_cm 0666; umad, issm 0600 root). Real character nodes need mknod,
# so this case runs as root only.
need_root "mknod of the /dev/infiniband nodes"

# mknodes: every node the fixture's sysfs announces, as udev would create it
mknodes() {
	local d name
	mkdir -p "$R/dev/infiniband"
	for d in "$R"/sys/class/infiniband_verbs/uverbs* "$R"/sys/class/infiniband_mad/umad* \
		"$R"/sys/class/infiniband_mad/issm* "$R"/sys/class/misc/rdma_cm; do
		[ -e "$d/dev" ] || continue
		name=$(basename "$d")
		mknod "$R/dev/infiniband/$name" c "$(cut -d: -f1 "$d/dev")" "$(cut -d: -f2 "$d/dev")"
		case $name in umad* | issm*) chmod 0600 "$R/dev/infiniband/$name" ;;
		*) chmod 0666 "$R/dev/infiniband/$name" ;; esac
	done
}
conf() { printf '[Workload]\nDeviceNodes=yes\n' >"$R/etc/hostprep/hostprep.conf"; }
# dv OBJECT FIELD
dv() { jqo ".results[] | select(.check==\"workload.devices\" and .object==\"/dev/infiniband/$1\") | .$2"; }
verdicts() { jqo '[.results[] | select(.check=="workload.devices") | .verdict] | unique | join(",")'; }

# 1. a healthy node: 4 uverbs + rdma_cm + 4 umad + 4 issm, all pass
newroot workload-ib
conf
mknodes
hp --json check
expect_rc 0
[ "$(verdicts)" = pass ] || fail "healthy node: verdicts $(verdicts), want pass"
[ "$(jqo '[.results[] | select(.check=="workload.devices")] | length')" = 13 ] ||
	fail "healthy node: $(jqo '[.results[] | select(.check=="workload.devices")] | length') device results, want 13"
[ "$(dv uverbs2 expected)" = "c 231:194 mode 0666" ] || fail "uverbs2 expected: $(dv uverbs2 expected)"

# 2. the faults, one per node
rm "$R/dev/infiniband/uverbs1"
chmod 0660 "$R/dev/infiniband/uverbs2"
rm "$R/dev/infiniband/uverbs3"
mknod "$R/dev/infiniband/uverbs3" c 231 200
chmod 0666 "$R/dev/infiniband/uverbs3"
rm "$R/dev/infiniband/rdma_cm"
: >"$R/dev/infiniband/rdma_cm"
chmod 0666 "$R/dev/infiniband/umad0"
hp --json check
expect_rc 1
[ "$(dv uverbs0 verdict)" = pass ] || fail "uverbs0 untouched: $(dv uverbs0 verdict)"
[ "$(dv uverbs1 verdict)" = fail ] || fail "uverbs1 missing: $(dv uverbs1 verdict), want fail"
dv uverbs1 actual | grep -q 'udev did not create it' || fail "uverbs1: $(dv uverbs1 actual)"
dv uverbs1 remedy | grep -q 'rdma-core installed.*udevadm trigger' || fail "uverbs1 remedy: $(dv uverbs1 remedy)"
[ "$(dv uverbs2 verdict)" = fail ] || fail "uverbs2 0660: $(dv uverbs2 verdict), want fail"
dv uverbs2 actual | grep -q 'mode 0660' || fail "uverbs2: $(dv uverbs2 actual)"
[ "$(dv uverbs3 verdict)" = fail ] || fail "uverbs3 stale 231:200: $(dv uverbs3 verdict), want fail"
dv uverbs3 actual | grep -q '231:200.*231:195' || fail "uverbs3: $(dv uverbs3 actual)"
[ "$(dv rdma_cm verdict)" = fail ] || fail "rdma_cm regular file: $(dv rdma_cm verdict), want fail"
dv rdma_cm actual | grep -q 'regular file' || fail "rdma_cm: $(dv rdma_cm actual)"
[ "$(dv umad0 verdict)" = warn ] || fail "umad0 0666: $(dv umad0 verdict), want warn"
[ "$(dv issm0 verdict)" = pass ] || fail "issm0: $(dv issm0 verdict)"
hp check
golden workload-devices.txt

# 3. sysfs that cannot be read right: garbage dev → unknown, never pass
newroot workload-ib
conf
mknodes
echo "garbage" >"$(readlink -f "$R/sys/class/infiniband_verbs/uverbs0")/dev"
rm "$(readlink -f "$R/sys/class/infiniband_verbs/uverbs1")/dev"
hp --json check
[ "$(dv uverbs0 verdict)" = unknown ] || fail "garbage dev: $(dv uverbs0 verdict), want unknown"
[ "$(dv uverbs1 verdict)" = unknown ] || fail "missing dev attribute: $(dv uverbs1 verdict), want unknown"

# 4. ib_umad and rdma_ucm not loaded: umad skipped, rdma_cm fails naming the module
newroot workload-ib-nomad
conf
mknodes
hp --json check
[ "$(dv 'umad*' verdict)" = skip ] || fail "no ib_umad: $(dv 'umad*' verdict), want skip"
[ "$(dv rdma_cm verdict)" = fail ] || fail "no rdma_ucm: $(dv rdma_cm verdict), want fail"
dv rdma_cm remedy | grep -q 'modprobe rdma_ucm' || fail "no rdma_ucm: remedy $(dv rdma_cm remedy)"

# 5. ib_uverbs not loaded: the RDMA devices have no verbs node at all
newroot workload-ib
conf
rm -rf "$R/sys/class/infiniband_verbs" "$R/sys/module/ib_uverbs"
hp --json check
[ "$(dv 'uverbs*' verdict | sort -u)" = fail ] || fail "no ib_uverbs: $(dv 'uverbs*' verdict | sort -u), want fail"
[ "$(jqo '[.results[] | select(.object=="/dev/infiniband/uverbs*")] | length')" = 4 ] ||
	fail "no ib_uverbs: not one failure per RDMA device"
[ "$(dv 'uverbs*' actual | grep -c 'ib_uverbs is not loaded$')" = 4 ] || fail "no ib_uverbs not said"
# ib_uverbs loaded, one device without its verbs node: never "modprobe ib_uverbs" (an audit
# found it said while the module ran)
newroot workload-ib
conf
mknodes
[ -d "$R/sys/module/ib_uverbs" ] || fail "the fixture has no sys/module/ib_uverbs"
rm "$R/sys/class/infiniband_verbs/uverbs3" "$R/dev/infiniband/uverbs3"
hp --json check
expect_rc 1
dv 'uverbs*' actual | grep -q '^mlx5_3 has no verbs device although ib_uverbs is loaded$' ||
	fail "a device without verbs beside a loaded ib_uverbs: $(dv 'uverbs*' actual)"
dv 'uverbs*' remedy | grep -q 'modprobe ib_uverbs' && fail "modprobe ib_uverbs while it is loaded"

# 6. no RDMA device at all: skip, not fail
newroot dgx8
conf
hp --json check
[ "$(jqo '[.results[] | select(.check=="workload.devices") | .verdict] | join(",")')" = skip ] ||
	fail "no RDMA device: $(verdicts), want one skip"
true

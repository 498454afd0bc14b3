# hostprep snapshot of a live guest (the kernel's own sysfs, /proc, module index and
# module files) replays to the same report: `hostprep check --json` on the guest and
# `hostprep --root DIR check --json` on the extracted tar agree but for the time and
# what names the root. Hardware: an Intel IOMMU (groups, dmar units), a virtio NIC on a
# root port with rdma_rxe on it (RDMA sysfs, a module rule libkmod resolves), a switch
# with NICs (ACS on every port). The tar holds none of /proc/PID, the journal, /etc/shadow.
QEMU_MACHINE=kernel-irqchip=split
QEMU_DEVICES="$QEMU_INTEL_IOMMU -global virtio-net-pci.speed=100000 -global virtio-net-pci.duplex=full
$(qemu_rootport_nic 2) $(qemu_switch 3 2)"
TIMEOUT=240
HOSTPREP_CONF='[Host]
Wait=0

[IOMMU]
Expect=translated

[ACS:gpu-paths]
Enabled=no

[ACS:switch]
Select=upstream:class:0200
Mask=x0x00xx

[Module:rdma_rxe]

[Port:rxe]
Select=rxe*
LinkLayer=Ethernet'

guest_prep() {
	prep_boot_unit rxe hostprep.service 'rxe_add rxe0 2 192.168.60.1/24'
}

# norm FILE [ROOT]: the report without its time and the source of an RDMA port's reading
# (verbs on the live host, sysfs under --root), the root named @ROOT@
norm() {
	jq 'del(.time)' "$1" | sed -E -e "s|${2:-@ROOT@}|@ROOT@|g" -e 's/ \[(verbs|sysfs)\]"/ [source]"/'
}

guest_check() {
	local d=/var/tmp/snap
	rm -rf "$d" && mkdir -p "$d/x"
	run_cmd hostprep check --json
	printf '%s\n' "$OUT" >"$d/host.json"
	local rc_host=$RC
	assert_match "$(jq -r '[.results[].check] | unique | join(" ")' "$d/host.json")" \
		'acs.*iommu.*module.*rdma' "the live check has acs, iommu, module and rdma results"

	assert_rc 0 "hostprep snapshot -o FILE" hostprep snapshot -o "$d/s.tar.zst"
	assert_eq "$(od -An -tx1 -N4 "$d/s.tar.zst" | tr -d ' ')" 28b52ffd "the tar is zstd"
	run_cmd tar -xf "$d/s.tar.zst" -C "$d/x"
	assert_eq "$RC" 0 "tar -xf of the snapshot"
	run_cmd hostprep --root "$d/x" check --json
	printf '%s\n' "$OUT" >"$d/replay.json"
	assert_eq "$RC" "$rc_host" "the replay exits as the live check"
	if diff <(norm "$d/host.json") <(norm "$d/replay.json" "$d/x") >"$d/diff"; then
		ok "the replay's report is the live report (time aside)"
	else
		fail "the replay's report differs: $(head -40 "$d/diff")"
	fi

	# what the live kernel has and the tar must hold, and must not
	tar -tf "$d/s.tar.zst" >"$d/members"
	assert_match "$(grep -c '/config$' "$d/members")" '^[1-9]' "config spaces captured"
	assert_match "$(grep -c 'lib/modules/[^/]*/modules\.dep\.bin$' "$d/members")" '^1$' "modules.dep.bin captured"
	assert_match "$(grep -E 'rdma_rxe\.ko' "$d/members")" 'rdma_rxe' "the module file libkmod opened"
	assert_match "$(grep -E '^sys/kernel/iommu_groups/[0-9]+/type$' "$d/members" | head -1)" . "IOMMU groups"
	assert_no_match "$(grep -E '^proc/[0-9]|^proc/self|shadow|journal|^var/log|^home/' "$d/members")" . \
		"no process, secret or log in the tar"
	assert_no_match "$(tar -tvf "$d/s.tar.zst" | grep -E '^l' | grep -E -- ' sys/[^ ]* -> /')" . \
		"no absolute symlink in a snapshot of a live sysfs"
	assert_match "$(tar -xOf "$d/s.tar.zst" hostprep-snapshot.txt | grep '^replay: ')" \
		'hostprep --root DIR check$' "the manifest's replay line"
	run_cmd sh -c "hostprep snapshot -o - | zstd -tq"
	assert_eq "$RC" 0 "-o - on a pipe is one valid zstd stream"
	grep '\.ko' "$d/members" >"$d/ko"
	run_cmd cat "$d/ko"
	assert_match "$(wc -l <"$d/ko")" '^([1-9]|1[0-9])$' \
		"only the module files libkmod opened (the module tree is not walked)"
	assert_match "$(tar -xOf "$d/s.tar.zst" hostprep-snapshot.txt)" \
		'not taken: [1-9][0-9]* sysfs attributes without a value' "empty GID slots counted, not listed"
	run_cmd tar -xOf "$d/s.tar.zst" hostprep-snapshot.txt
}

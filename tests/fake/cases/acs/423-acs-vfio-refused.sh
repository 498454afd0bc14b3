# ACS is not cleared above a device passed through to a VM (issue 25 §3). A selected port
# above a function bound to vfio-pci was written without a word: that function's IOMMU
# group was formed with ACS on, so once RR/CR are off a guest's device can reach another
# guest's memory. The write is refused (nothing written to that port, its acs result
# fails naming the vfio-pci function and AllowVFIO=), unless the rule says AllowVFIO=yes;
# apply --dry-run and the acs result say which IOMMU groups the write merges.
acs() { jqo ".results[] | select(.check==\"acs\" and .object==\"$1\") | .verdict + \"|\" + .actual + \"|\" + (.remedy // \"\")"; }
# bind BDF DRIVER in the tree and in the reference (so that only hostprep's writes differ)
bind() {
	local d
	ref_private
	for d in "$R" "$REF"; do
		mkdir -p "$d/sys/bus/pci/drivers/$2"
		ln -sfn "../../../../../../bus/pci/drivers/$2" "$(readlink -f "$d/sys/bus/pci/devices/$1")/driver"
	done
}
newroot dgx8
useconf gpu-p2p
bind 0000:18:00.0 vfio-pci
# the dry run: the two ports above 18:00.0 refused, the ten others written
hp apply --dry-run
expect_rc 0
expect_tree_same
expect_grep out '^plan: 12 ports selected: 12 with ACS; 10 writes, 2 refused$'
expect_grep out '^  refuse 0000:15:01\.0 ACS@0x220 ctrl\(\+0x6\) 0x001d -> 0x0011 .* rule gpu-p2p$'
expect_grep out '^  refuse 0000:17:00\.0 ACS@0xf24 ctrl\(\+0x6\) 0x001d -> 0x0011 .* rule gpu-p2p$'
expect_grep out '^    refused: vfio-pci below \(0000:18:00\.0\); a guest.s device could reach another guest.s memory; AllowVFIO=yes in the rule allows it$'
expect_grep out '^  write 0000:17:01\.0 ACS@0xf24'
[ "$(grep -c '^    refused:' "$T/out")" = 2 ] || fail "dry run: $(grep -c '^    refused:' "$T/out") refused lines, want 2"
# the groups below the root port that relaxing it merges
expect_grep out '^    IOMMU groups 5, 6, 7, 8, 9, 10, 11 below become one$'
hp --json apply --dry-run
expect_rc 0
[ "$(jqo '.plan.summary.writes'),$(jqo '.plan.summary.refused')" = 10,2 ] ||
	fail "dry-run JSON summary: $(jqo '.plan.summary')"
[ "$(jqo '.plan.ports[] | select(.address=="0000:17:00.0") | "\(.write)|\(.refused)|\(.vfio | join(" "))|\(.old)|\(.new)"')" = "false|true|0000:18:00.0|0x001d|0x0011" ] ||
	fail "dry-run JSON port 17:00.0: $(jqo '.plan.ports[] | select(.address=="0000:17:00.0")')"
[ "$(jqo '.plan.ports[] | select(.address=="0000:15:01.0") | .iommu_groups_merged | map(tostring) | join(",")')" = 5,6,7,8,9,10,11 ] ||
	fail "dry-run JSON 15:01.0 merged groups: $(jqo '.plan.ports[] | select(.address=="0000:15:01.0")')"
[ "$(jqo '.plan.ports[] | select(.address=="0000:17:01.0") | "\(.write)|\(.refused)|\(.vfio | length)"')" = "true|false|0" ] ||
	fail "dry-run JSON port 17:01.0: $(jqo '.plan.ports[] | select(.address=="0000:17:01.0")')"

# the boot-time form leaves the refused ports out (at boot they would be relaxed all the same)
hp acs cmdline
expect_rc 0
[ "$(tr ';' '\n' <"$T/out" | grep -c .)" = 10 ] || fail "acs cmdline names $(tr ';' '\n' <"$T/out" | grep -c .) ports, want 10: $(cat "$T/out")"
expect_no_grep out '0000:15:01\.0"|0000:15:01\.0;|0000:15:01\.0/00\.0/00\.0' "acs cmdline names a refused port: $(cat "$T/out")"

# apply: nothing written above 18:00.0, the rest as usual; not ready, naming why
hp --json apply
expect_rc 1
expect_tree_diff <<'EOT'
./sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:01.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:37/0000:37:01.0/0000:38:00.0/0000:39:00.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:37/0000:37:01.0/0000:38:00.0/0000:39:01.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:37/0000:37:01.0/config +0x226: 1d -> 11
./sys/devices/pci0000:97/0000:97:01.0/0000:98:00.0/0000:99:00.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:97/0000:97:01.0/0000:98:00.0/0000:99:01.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:97/0000:97:01.0/config +0x226: 1d -> 11
./sys/devices/pci0000:b7/0000:b7:01.0/0000:b8:00.0/0000:b9:00.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:b7/0000:b7:01.0/0000:b8:00.0/0000:b9:01.0/config +0xf2a: 1d -> 11
./sys/devices/pci0000:b7/0000:b7:01.0/config +0x226: 1d -> 11
EOT
V=$(acs 0000:17:00.0)
case $V in "fail|0x001d (SV,RR,CR,UF) not written: vfio-pci below (0000:18:00.0)|"*AllowVFIO=yes*"[ACS:gpu-p2p]"*) ;;
*) fail "acs 17:00.0 above vfio-pci: $V" ;; esac
V=$(acs 0000:15:01.0)
case $V in "fail|0x001d (SV,RR,CR,UF) not written: vfio-pci below (0000:18:00.0); IOMMU groups 5, 6, 7, 8, 9, 10, 11 would become one|"*) ;;
*) fail "acs 15:01.0 above vfio-pci: $V" ;; esac
# a written root port says which groups became one
case $(acs 0000:37:01.0) in "pass|0x0011 (SV,UF); IOMMU groups 14, 15, 16, 17, 18, 19, 20 below become one|") ;;
*) fail "acs 37:01.0 written: $(acs 0000:37:01.0)" ;; esac
# nothing written: no original recorded for the refused ports
if [ -f "$R/run/hostprep/acs-originals" ]; then
	expect_no_grep "$R/run/hostprep/acs-originals" '^acs 0000:(15:01|17:00)\.0 ' "an original recorded for a refused port"
fi

# relaxed already (by someone else) above vfio-pci: still a fail, "relaxed already"
newroot dgx8
useconf gpu-p2p
hp apply
expect_rc 0
bind 0000:18:00.0 vfio-pci
hp --json check
expect_rc 1
case $(acs 0000:17:00.0) in "fail|0x0011 (SV,UF) relaxed already: vfio-pci below (0000:18:00.0)|"*) ;;
*) fail "relaxed already above vfio-pci: $(acs 0000:17:00.0)" ;; esac
hp apply --dry-run
expect_grep out '^  refuse 0000:17:00\.0 ACS@0xf24 ctrl\(\+0x6\) 0x0011: relaxed already  rule gpu-p2p$'

# AllowVFIO=yes: the rule says it is intended: written, and the plan says so
newroot dgx8
useconf gpu-p2p
bind 0000:18:00.0 vfio-pci
printf '[ACS:gpu-p2p]\nAllowVFIO=yes\n' >"$T/allow.conf"
for d in "$R" "$REF"; do install -D -m 0644 "$T/allow.conf" "$d/etc/hostprep/hostprep.conf.d/50-vfio.conf"; done
hp apply --dry-run
expect_grep out '^plan: 12 ports selected: 12 with ACS; 12 writes$'
expect_grep out '^    vfio-pci below \(0000:18:00\.0\): allowed by AllowVFIO=yes$'
hp --json apply
expect_rc 0
case $(acs 0000:17:00.0) in "pass|0x0011 (SV,UF)|") ;; *) fail "AllowVFIO=yes: $(acs 0000:17:00.0)" ;; esac

# a mask that relaxes no isolation bit (only EC, DT) is no refusal
newroot dgx8
bind 0000:18:00.0 vfio-pci
printf '[Host]\nApply=yes\n[ACS:ec]\nSelect=upstream:10de:*\nMask=x0xxxxx\n' >"$T/ec.conf"
for d in "$R" "$REF"; do install -m 0644 "$T/ec.conf" "$d/etc/hostprep/hostprep.conf"; done
hp apply --dry-run
expect_rc 0
expect_no_grep out 'refuse|refused|become one' "a mask clearing only EC refused or merged: $(head -3 "$T/out")"

# a vfio-pci function that is not below the port: nothing refused (a NIC's own port)
newroot dgx8
useconf gpu-p2p
bind 0000:1a:00.0 vfio-pci
hp apply --dry-run
expect_grep out '^plan: 12 ports selected: 12 with ACS; 11 writes, 1 refused$'
expect_grep out '^  refuse 0000:15:01\.0 '

# a driver that cannot be read (a directory where the "driver" link should be: readlink
# says EINVAL; in the field EACCES, or sysfs torn mid-unbind) counts as vfio-pci: the two
# ports above 18:00.0 are refused, the function named as unreadable, not as vfio-pci
newroot dgx8
useconf gpu-p2p
ref_private
for d in "$R" "$REF"; do
	dev=$(readlink -f "$d/sys/bus/pci/devices/0000:18:00.0")
	rm -f "$dev/driver"
	mkdir "$dev/driver"
done
hp apply --dry-run
expect_rc 0
expect_grep out '^plan: 12 ports selected: 12 with ACS; 10 writes, 2 refused$'
expect_grep out '^    refused: driver unreadable below \(0000:18:00\.0\), counted as vfio-pci; a guest.s device'
hp --json apply --dry-run
[ "$(jqo '.plan.ports[] | select(.address=="0000:17:00.0") | "\(.refused)|\(.vfio | length)|\(.driver_unreadable | join(" "))"')" = "true|0|0000:18:00.0" ] ||
	fail "driver unreadable, JSON port 17:00.0: $(jqo '.plan.ports[] | select(.address=="0000:17:00.0")')"
hp --json apply
expect_rc 1
case $(acs 0000:17:00.0) in "fail|0x001d (SV,RR,CR,UF) not written: driver unreadable below (0000:18:00.0), counted as vfio-pci|"*) ;;
*) fail "driver unreadable, acs result: $(acs 0000:17:00.0)" ;; esac
# a missing driver link is no driver bound: nothing refused
newroot dgx8
useconf gpu-p2p
ref_private
for d in "$R" "$REF"; do rm -f "$(readlink -f "$d/sys/bus/pci/devices/0000:18:00.0")/driver"; done
hp apply --dry-run
expect_grep out '^plan: 12 ports selected: 12 with ACS; 12 writes$'

# vfio-pci's vendor variants hand the function to a VM the same way (mlx5_vfio_pci for
# ConnectX VF live migration, nvgrace_gpu_vfio_pci for Grace Hopper GPUs): refused too;
# a driver whose name only contains "vfio" is not one of them
for drv in mlx5_vfio_pci nvgrace_gpu_vfio_pci; do
	newroot dgx8
	useconf gpu-p2p
	bind 0000:18:00.0 "$drv"
	hp apply --dry-run
	expect_grep out '^plan: 12 ports selected: 12 with ACS; 10 writes, 2 refused$'
	expect_grep out '^    refused: vfio-pci below \(0000:18:00\.0\); '
done
for drv in _vfio_pci vfio_pci_stub xvfio-pci; do
	newroot dgx8
	useconf gpu-p2p
	bind 0000:18:00.0 "$drv"
	hp apply --dry-run
	expect_grep out '^plan: 12 ports selected: 12 with ACS; 12 writes$'
done

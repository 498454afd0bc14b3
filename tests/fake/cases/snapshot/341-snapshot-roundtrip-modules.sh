# hostprep snapshot, round trip (as 340) for the module, RDMA, bond and workload fixtures:
# what libkmod reads (the index, modprobe.d, the module files it opens for modinfo) is in
# the tar, so the replay's module verdicts are the host's.
. "$HERE/lib-snapshot.sh"
roundtrip_all '!(dgx8*|l40-amd|vm-noacs|2socket)'
# both cases together took every fixture
for fx in $(python3 "$HERE/mkroot.py" --list); do
	[ -n "${SNAP_CONFIGS[$fx]:-}" ] || fail "fixture $fx is in no round trip"
done

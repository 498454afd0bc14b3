# hostprep snapshot, round trip: each PCI/ACS/IOMMU/topology fixture with the configs the
# other cases run it with, checked, snapshotted, extracted and checked again: the same
# report and exit status (lib-snapshot.sh; 341 takes the module, RDMA, bond and
# workload fixtures).
. "$HERE/lib-snapshot.sh"
roundtrip_all '@(dgx8*|l40-amd|vm-noacs|2socket)'

# The goldens of the 64-byte view, made as nobody: what hostprep says on that view
# depends on who runs it (63-missing-capability), so these pin the non-root text.
need_root "to run as nobody with setpriv"
need_tool setpriv
HP_ENV=(setpriv --reuid=65534 --regid=65534 --clear-groups)
newroot dgx8-nonroot
useconf gpu-p2p
hp check
golden dgx8-nonroot-check.txt
hp --json check
golden dgx8-nonroot-check.json
hp apply --dry-run
golden dgx8-nonroot-apply-dry-run.txt
hp --json apply --dry-run
golden dgx8-nonroot-apply-dry-run.json
# topology's view of the same tree as nobody: "needs root" (as root it is the kernel's
# 64 bytes: case 152; without CAP_SYS_ADMIN: case 63)
newroot dgx8-nonroot
hp topology
golden dgx8-nonroot-topology.txt

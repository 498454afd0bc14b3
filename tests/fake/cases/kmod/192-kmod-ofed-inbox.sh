# OFED installed, the kernel's own RDMA stack running (issue 17.15): one module.stack
# result says it once ("the running RDMA stack is the kernel's own; OFED 24.10-1.1.4 is
# installed but not loaded") with the remedy that swaps the whole stack: openibd restart
# where OFED ships it, else the initramfs of this distribution and a reboot. origin, stale
# and version point at it; none proposes a per-module reload or "install MLNX_OFED";
# version is judged on what runs; running and on-disk are never mixed in a message.
newroot ofed-inbox
useconf kmod-ofed
hp -v check
expect_rc 1
expect_grep out "^FAIL +module\.stack +rdma +.*the running RDMA stack is the kernel's own; OFED 24\.10-1\.1\.4 is installed but not loaded \(running: mlx5_core, mlx5_ib, ib_core, ib_uverbs, rdma_ucm, the kernel's builds"
[ "$(grep -c "kernel's own; OFED" "$T/out")" = 1 ] || fail "the root cause is stated more than once"
expect_grep out 'update the initramfs \(update-initramfs -u, or dracut -f\), then reboot'
expect_grep out '^FAIL +module\.origin +mlx5_core +ofed +inbox \(.*; file version 24\.10-1\.1\.4\)$'
expect_grep out '^FAIL +module\.version +mlx5_core +>= 24\.10-1\.1\.4 +no version field \(running; the file on disk has 24\.10-1\.1\.4\)$'
expect_grep out "^FAIL +module\.stale +mlx5_ib +.*running: the kernel's own build \(srcversion D6F708192A3B4C5D6E7F809\); on disk: OFED's \(srcversion 8C9D0E1F2A3B4C5D6E7F8A9, updates/dkms/"
expect_grep out 'see module\.stack: the whole RDMA stack must be swapped'
expect_no_grep out 'modprobe -r'
expect_no_grep out 'install MLNX_OFED'
expect_no_grep out 'newer driver|old one'
expect_no_grep out 'version 24\.10-1\.1\.4 \(running\)|24\.10-1\.1\.4 \(file\)'

# Debian, RHEL-like, and OFED's openibd: the remedy follows the root's files
echo 12.7 >"$R/etc/debian_version"
hp -v check
expect_grep out '→ update-initramfs -u, then reboot: boot loads OFED'"'"'s stack'
rm "$R/etc/debian_version"
echo 'Rocky Linux release 9.4 (Blue Onyx)' >"$R/etc/redhat-release"
hp -v check
expect_grep out '→ dracut -f, then reboot'
mkdir -p "$R/usr/lib/systemd/system"
: >"$R/usr/lib/systemd/system/openibd.service"
hp -v check
expect_grep out '→ /etc/init\.d/openibd restart \(OFED'"'"'s script unloads the kernel'"'"'s RDMA modules and loads OFED'"'"'s, all together'

# the OFED stack running (ofed-gpu) or OFED's mlx_compat live (ofed-mixed): no stack result
newroot ofed-gpu
useconf kmod-ofed
hp -v check
expect_no_grep out 'module\.stack'
newroot ofed-mixed
useconf kmod-ofed
hp -v check
expect_no_grep out 'module\.stack'
expect_grep out '^FAIL +module\.stale +mlx5_core .*the running module is not the file on disk: srcversion 3F00D1E2A3B4C5D6E7F8091 running, 7B8C9D0E1F2A3B4C5D6E7F8 on disk'

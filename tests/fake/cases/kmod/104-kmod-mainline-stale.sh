# Mainline erdma (no compat_mode): a fail that names the driver to install, never a pass.
# OFED upgraded on disk while the old driver runs: module.stale fails; an inbox ib_core
# running among OFED modules fails module.origin with the evidence.
newroot erdma-mainline
useconf kmod-erdma
hp -v apply
expect_rc 1
expect_grep out '^FAIL +module\.param +erdma\.compat_mode +Y +erdma has no parameter compat_mode'
expect_grep out "install Alibaba Cloud's erdma driver"
expect_no_grep out 'module\.reload'

newroot ofed-mixed
useconf kmod-ofed
hp -v check
expect_rc 1
expect_grep out '^FAIL +module\.stale +mlx5_core .*the running module is not the file on disk: srcversion 3F00D1E2A3B4C5D6E7F8091 running, 7B8C9D0E1F2A3B4C5D6E7F8 on disk'
expect_grep out '^FAIL +module\.origin +ib_core +ofed +inbox \('
expect_grep out '^FAIL +module\.version +mlx5_core +>= 24\.10-1\.1\.4 +23\.10-1\.1\.9 \(running; the file on disk has 24\.10-1\.1\.4\)$'
# OFED's files are on disk: the remedies reload what runs, never "install MLNX_OFED"
expect_grep out '^  → the file on disk has a good version: reload the stack'
expect_grep out "^  → the file on disk is OFED's \\(updates/dkms/drivers/infiniband/core/ib_core\\.ko\\): reload the stack"
expect_no_grep out 'install MLNX_OFED'

newroot ofed-gpu
useconf kmod-ofed
hp -v check
expect_rc 0
expect_grep out '^PASS +gpudirect +host +either +peermem: nvidia_peermem live, nv_mem registered'

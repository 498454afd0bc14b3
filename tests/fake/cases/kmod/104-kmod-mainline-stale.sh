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

# the file modprobe would load is there but cannot be read as a module (a cut DKMS
# build, a FIFO): no evidence either way, unknown, and never "modprobe -r" (a reload
# would unload the running driver and fail to load the file). An audit found both FAIL
# "no file for it on disk now" with that remedy.
newroot erdma-std
printf '[Module:erdma]\n' >"$R/etc/hostprep/hostprep.conf"
KO=$R/lib/modules/6.1.0-27-amd64/updates/erdma.ko
head -c 600 "$KO" >"$T/cut.ko"
cat "$T/cut.ko" >"$KO"
hp -v check
expect_rc 1
expect_grep out '^UNKNOWN +module\.stale +erdma .*the file on disk cannot be read as a module: '
expect_grep out 'modinfo -n erdma: a cut or half-installed build'
expect_no_grep out 'modprobe -r erdma'
rm "$KO"
mkfifo "$KO"
hp -v check
expect_rc 1
expect_grep out '^UNKNOWN +module\.stale +erdma .*cannot be read as a module: not a regular file'
expect_no_grep out 'modprobe -r erdma'

# without /proc/modules, GPUDirect reads peermem's state where module.state does
# (/sys/module): an audit found module.state "live" and gpudirect "load nvidia_peermem"
newroot ofed-gpu
printf '[Module:nvidia_peermem]\n\n[GPUDirect]\nExpect=peermem\n' >"$R/etc/hostprep/hostprep.conf"
rm "$R/proc/modules"
hp --json check
[ "$(jqo '[.results[] | select(.check == "module.state" or .check == "gpudirect") | .verdict] | join(",")')" = pass,pass ] ||
	fail "without /proc/modules: $(jqo -c '[.results[] | select(.check == "module.state" or .check == "gpudirect") | [.verdict, .actual]]')"

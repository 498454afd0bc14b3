# check: Persist=yes but the file lacks the line (drift) → fail with the remedy ([Host]
# Apply=yes), a warning in audit mode (Apply=no). The initramfs: a module listed in
# /etc/initramfs-tools/modules or a dracut add_drivers/force_drivers line gets a warning
# with the rebuild command when apply changes the file, and a module running with the
# wrong value although the option is in place is named as loaded before the root fs.
P=etc/modprobe.d/hostprep.conf

newroot erdma-compat
useconf kmod-erdma
hp -v check
expect_rc 1
expect_grep out '^FAIL +module\.persist +/etc/modprobe\.d/hostprep\.conf +1 options line, hostprep-owned +absent; lacks "options erdma compat_mode=Y"$'
expect_grep out 'hostprep apply \(with \[Host\] Apply=yes it writes /etc/modprobe\.d/hostprep\.conf\)'
hp -v apply
expect_rc 0
sed -i 's/compat_mode=Y/compat_mode=N/' "$R/$P" # drift: someone edited it
hp -v check
expect_rc 1
expect_grep out '^FAIL +module\.persist +/etc/modprobe\.d/hostprep\.conf .* present; lacks "options erdma compat_mode=Y"$'

newroot erdma-compat
useconf kmod-erdma
dropin kmod-persist-audit 90-audit.conf
hp -v check
expect_rc 0
expect_grep out '^WARN +module\.persist +/etc/modprobe\.d/hostprep\.conf .* absent; lacks "options erdma compat_mode=Y"$'

# initramfs-tools lists erdma: the new option does not reach the initramfs copy
newroot erdma-compat
useconf kmod-erdma
mkdir -p "$R/etc/initramfs-tools"
printf '# modules for the initramfs\nmlx5_core\nerdma compat_mode=N\n' >"$R/etc/initramfs-tools/modules"
hp -v apply
expect_rc 0
expect_grep out '^WARN +module\.persist +/etc/modprobe\.d/hostprep\.conf .* written, read back; erdma is in the initramfs \(/etc/initramfs-tools/modules:3\), which keeps the modprobe\.d it was built with$'
expect_grep out 'update-initramfs -u'
hp -v apply # nothing changed now and erdma runs right: no note
expect_grep out '^PASS +module\.persist +/etc/modprobe\.d/hostprep\.conf .* already up to date$'

# dracut: the remedy is dracut -f
newroot erdma-compat
useconf kmod-erdma
mkdir -p "$R/etc/dracut.conf.d"
printf 'hostonly="yes"\nadd_drivers+=" mlx5_ib erdma "\n' >"$R/etc/dracut.conf.d/50-rdma.conf"
hp -v apply
expect_rc 0
expect_grep out 'erdma is in the initramfs \(/etc/dracut\.conf\.d/50-rdma\.conf:2\)'
expect_grep out 'dracut -f \(then reboot\)'

# the option was in place, and erdma still came up in standard mode: before the root fs
newroot erdma-std
useconf kmod-erdma
mkdir -p "$R/etc/dracut.conf.d"
printf 'force_drivers="erdma"\n' >"$R/etc/dracut.conf.d/erdma.conf"
hp -v apply
hp -v check
expect_rc 1
expect_grep out '^WARN +module\.persist +/etc/modprobe\.d/hostprep\.conf .* has every options line; erdma was loaded with compat_mode=N although /etc/modprobe\.d/hostprep\.conf has the option: it was loaded before the root file system \(the initramfs copy, listed in /etc/dracut\.conf\.d/erdma\.conf:1\) or by hand$'

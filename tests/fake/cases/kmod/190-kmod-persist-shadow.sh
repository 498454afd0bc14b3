# Persist=yes is only as good as what libkmod will pass: a later modprobe.d file
# (zz-site.conf sorts after hostprep.conf), a file in another modprobe.d directory, or the
# kernel command line's erdma.compat_mode= wins at the next load (the kernel keeps the
# last value). module.persist fails naming the file:line, at apply and at every check; an
# earlier file, the same value in another spelling (which then makes the line needless),
# or a file masked by the same name in /etc are no override. An install line is reported. libkmod (kmod_module_get_options) is
# the oracle: the walk must never disagree with it (a warning on stderr if it does).
P=etc/modprobe.d/hostprep.conf

newroot erdma-compat
useconf kmod-erdma
printf '# site defaults\n\noptions erdma compat_mode=N\n' >"$R/etc/modprobe.d/zz-site.conf"
hp -v apply
expect_rc 1
expect_grep out '^FAIL +module\.persist +/etc/modprobe\.d/hostprep\.conf .* written, read back; /etc/modprobe\.d/zz-site\.conf:3: options erdma compat_mode=N overrides hostprep\.conf \(the kernel keeps the last value\)$'
expect_grep out 'remove or change the overriding line'
expect_no_grep out 'initramfs'
expect_no_grep err 'libkmod passes'
hp -v check # re-evaluated every run
expect_rc 1
expect_grep out '^FAIL +module\.persist .* has every options line; /etc/modprobe\.d/zz-site\.conf:3: options erdma compat_mode=N overrides'
expect_no_grep err 'libkmod passes'
# the site file agrees (another spelling of the same bool): no override, and no line is
# needed in hostprep.conf any more: the file that gives the value is named
sed -i 's/compat_mode=N/compat_mode=1/' "$R/etc/modprobe.d/zz-site.conf"
hp -v check
expect_rc 0
expect_grep out '^PASS +module\.persist +/etc/modprobe\.d/hostprep\.conf +no options line needed: the next load gets the values +present, no line needed; erdma gets compat_mode=1 from /etc/modprobe\.d/zz-site\.conf:3$'
# a file sorting before hostprep.conf is overridden by it, not the other way round
mv "$R/etc/modprobe.d/zz-site.conf" "$R/etc/modprobe.d/aa-site.conf"
sed -i 's/compat_mode=1/compat_mode=N/' "$R/etc/modprobe.d/aa-site.conf"
hp -v check
expect_rc 0
expect_grep out '^PASS +module\.persist .* has every options line$'
expect_no_grep err 'libkmod passes'

# /lib/modprobe.d and /usr/lib/modprobe.d sort by name with /etc's files: mlnx.conf in
# /lib wins over /etc's hostprep.conf; the same name in /etc masks it.
newroot erdma-compat
useconf kmod-erdma
mkdir -p "$R/lib/modprobe.d" "$R/usr/local/lib/modprobe.d"
printf 'options erdma\tcompat_mode=0 \\\n  foo=1\n' >"$R/lib/modprobe.d/mlnx.conf"
hp -v apply
expect_rc 1
expect_grep out '/lib/modprobe\.d/mlnx\.conf:1: options erdma compat_mode=0 +foo=1 overrides hostprep\.conf'
expect_no_grep err 'libkmod passes'
printf '# masks /lib/modprobe.d/mlnx.conf\n' >"$R/etc/modprobe.d/mlnx.conf"
hp -v check
expect_rc 0
expect_grep out '^PASS +module\.persist .* has every options line$'
printf 'options erdma compat_mode=n\n' >"$R/usr/local/lib/modprobe.d/zz.conf"
hp -v check
expect_rc 1
expect_grep out '/usr/local/lib/modprobe\.d/zz\.conf:1: options erdma compat_mode=n overrides'
expect_no_grep err 'libkmod passes'

# the kernel command line comes last of all
newroot erdma-compat
useconf kmod-erdma
printf 'BOOT_IMAGE=/vmlinuz root=/dev/vda1 erdma.compat_mode=N quiet\n' >"$R/proc/cmdline"
printf 'options erdma compat_mode=Y\n' >"$R/etc/modprobe.d/zz-site.conf"
hp -v apply
expect_rc 1
expect_grep out "written, read back; the kernel command line's erdma\.compat_mode=N overrides hostprep\.conf \(the kernel keeps the last value\)$"
expect_no_grep out 'zz-site'
expect_no_grep err 'libkmod passes'
# after "--" too: the kernel leaves the rest to init, libkmod reads on (an audit found a
# pass there)
newroot erdma-compat
useconf kmod-erdma
printf 'BOOT_IMAGE=/vmlinuz root=/dev/vda1 quiet -- erdma.compat_mode=N\n' >"$R/proc/cmdline"
hp -v apply
expect_rc 1
expect_grep out "written, read back; the kernel command line's erdma\.compat_mode=N overrides hostprep\.conf \(the kernel keeps the last value\)$"

# an install line replaces the load: reported (a warning), never a pass
newroot erdma-compat
useconf kmod-erdma
printf 'install erdma /sbin/modprobe --ignore-install erdma\n' >"$R/etc/modprobe.d/erdma-install.conf"
hp -v apply
expect_rc 0
expect_grep out '^WARN +module\.persist .* written, read back; /etc/modprobe\.d/erdma-install\.conf:1: install erdma /sbin/modprobe --ignore-install erdma replaces the load \(the options reach erdma only through that command\)$'

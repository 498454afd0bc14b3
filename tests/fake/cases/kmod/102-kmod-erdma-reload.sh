# erdma in standard mode: unused → apply would reload it in compat mode (dry under --root,
# the exact libkmod actions named); in use → refused, the process named, nothing
# unloaded; no module syscall is ever made under --root; the tree is not written.
need_tool strace
# LeakSanitizer cannot run under ptrace (its fatal error is the sanitizer exit status)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
newroot erdma-std
useconf kmod-erdma
hp -v check
expect_rc 1
expect_grep out '^FAIL +module\.param +erdma\.compat_mode +Y +N$'
expect_grep out 'hostprep apply \(Reload=unused reloads erdma with compat_mode=Y\)'
strace -f -qq -o "$T/strace" -e trace=init_module,finit_module,delete_module \
	"$BIN" --root "$R" --no-color -v apply >"$T/out" 2>"$T/err"
RC=$?
expect_rc 1
[ -s "$T/strace" ] && fail "module syscalls under --root: $(head -3 "$T/strace")"
# Nothing was loaded under --root: the PCI inventory is read once (a load on the host
# reads it again before verify: tests/vm 21-mod-load)
expect_grep err 'PCI inventory: [0-9]+ functions \(read 1 of this run\)'
expect_no_grep err 'read 2 of this run'
expect_grep out '^SKIP +module\.reload +erdma .*would run: rmmod erdma; insmod /lib/modules/6\.1\.0-27-amd64/updates/erdma\.ko compat_mode=Y$'
expect_tree_diff <<'EOF'
entry: +d 755 ./var
entry: +d 755 ./var/lib
entry: +d 755 ./var/lib/hostprep
entry: +f 600 ./var/lib/hostprep/originals
entry: +f 644 ./etc/modprobe.d/hostprep.conf
EOF
newroot erdma-std
useconf kmod-erdma
hp -v apply --dry-run
expect_rc 0
expect_grep out '^  reload erdma when unused \(Reload=unused\): rmmod erdma; insmod /lib/modules/6\.1\.0-27-amd64/updates/erdma\.ko compat_mode=Y$'
expect_grep out 'persist erdma: "options erdma compat_mode=Y" in /etc/modprobe.d/hostprep.conf \(hostprep-owned'
expect_tree_same # a dry run writes nothing, not even the persisted option

newroot erdma-inuse
useconf kmod-erdma
hp -v apply
expect_rc 1
expect_grep out '^FAIL +module\.reload +erdma .*refused: in use by refcnt 1, pid 4242 \(ib_send_bw\) holds /dev/infiniband/uverbs0; nothing unloaded$'
expect_no_grep out 'would run: rmmod'
expect_grep out '^FAIL +module\.param +erdma\.compat_mode +Y +N$'
expect_tree_diff <<'EOF'
entry: +d 755 ./var
entry: +d 755 ./var/lib
entry: +d 755 ./var/lib/hostprep
entry: +f 600 ./var/lib/hostprep/originals
entry: +f 644 ./etc/modprobe.d/hostprep.conf
EOF

newroot erdma-compat
useconf kmod-erdma
hp -v apply
expect_rc 0
expect_grep out '^PASS +module\.param +erdma\.compat_mode +Y +Y$'
expect_no_grep out 'module\.reload|module\.load'

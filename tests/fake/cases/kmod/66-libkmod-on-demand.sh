# libkmod (and the libcrypto it links) is dlopen()ed only when a [Module:*] rule needs the
# module index (issue 11): a check without module rules maps neither; one with them does;
# without the library the module checks say so (unknown, the library named), never guess.
need_tool strace
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
libs_opened() { # LOG -> the libkmod/libcrypto opens that succeeded
	grep -E 'open(at)?\(.*(libkmod|libcrypto)\.so[^"]*"' "$1" | grep -v ' = -1 ' || true
}
newroot dgx8
useconf gpu-p2p
strace -f -e trace=open,openat -o "$T/acs.strace" "$BIN" --root "$R" --no-color check \
	</dev/null >"$T/out" 2>"$T/err"
RC=$?
echo "\$ strace hostprep check (no module rule) -> exit $RC" >>"$T/transcript"
expect_exited "$RC" "check under strace, no module rule"
if [ -n "$(libs_opened "$T/acs.strace")" ]; then
	fail "check without [Module:*] rules loaded libkmod/libcrypto:"
	libs_opened "$T/acs.strace" | sed 's/^/    /' | head -3
fi

newroot erdma-std
useconf kmod-erdma
strace -f -e trace=open,openat -o "$T/kmod.strace" "$BIN" --root "$R" --no-color check \
	</dev/null >"$T/out" 2>"$T/err"
RC=$?
echo "\$ strace hostprep check (module rules) -> exit $RC" >>"$T/transcript"
expect_exited "$RC" "check under strace, module rules"
libs_opened "$T/kmod.strace" | grep -q libkmod ||
	fail "check with [Module:*] rules never opened libkmod (the case cannot see it)"
expect_grep out '^PASS +module\.stale +erdma '

# The library missing: a shim makes dlopen("libkmod...") fail like an absent file.
cc -shared -fPIC -O2 -o "$T/nokmod.so" "$HERE/nokmod.c" -ldl 2>"$T/cc.log" ||
	{ fail "cannot build nokmod.so: $(cat "$T/cc.log")"; exit 1; }
HP_ENV=(LD_PRELOAD="$T/nokmod.so")
hp -v check
HP_ENV=()
expect_rc 1
expect_grep err 'Cannot load libkmod\.so\.2, needed by \[Module:\*\] rules: .*install libkmod2'
expect_grep out '^UNKNOWN +module\.stale +erdma .*no module index to compare with'
expect_no_grep out '^PASS +module\.stale'
expect_no_grep out 'no file for it on disk'

# libarchive, and what it links (libxml2, ICU, libstdc++, the compressors), is loaded by
# hostprep snapshot alone, with dlopen() (issue 26): the binary does not link it, a check
# run does not open it, a snapshot does and writes its tar.
need_tool readelf strace zstd
newroot dgx8
useconf gpu-p2p
if readelf -d "$BIN" | grep -E 'NEEDED' | grep -q 'libarchive'; then
	fail "the binary links libarchive: $(readelf -d "$BIN" | grep -E 'NEEDED.*archive')"
fi
strace -f -e trace=openat -o "$T/check.trace" "$BIN" --root "$R" check </dev/null >/dev/null 2>&1
grep -q 'libarchive\.so' "$T/check.trace" && fail "a check run opens libarchive"
strace -f -e trace=openat -o "$T/snap.trace" "$BIN" --root "$R" snapshot -o "$T/s.tar.zst" \
	</dev/null >/dev/null 2>&1
grep -q 'libarchive\.so' "$T/snap.trace" || fail "the snapshot does not open libarchive"
zstd -tq "$T/s.tar.zst" || fail "the snapshot's tar is not whole"

# snapshot -o PATH never replaces what PATH is (issue 25 §6): a character device (a copy of
# /dev/null) and a FIFO are written into and stay what they were; a directory, a block
# device, a socket, a symlink to a file and a dangling symlink are refused (exit 2) and
# left alone; a symlink to a FIFO (as /dev/stdout or /dev/fd/N on a pipe) is written
# through. On standard output and into a FIFO the tar is exactly one compressed stream:
# no zero padding after it (libarchive pads to 10240 bytes there unless told), so zstd -t
# and tar --zstd -t take it. mknod needs root.
need_root "mknod of a character and a block device"
need_tool zstd timeout python3
. "$HERE/lib-snapshot.sh"
newroot dgx8
useconf gpu-p2p

# -o -, into a file and into a pipe: one valid stream
hp snapshot -o -
expect_rc 0
zstd -tq "$T/out" || fail "-o - into a file: zstd -t rejects the stream"
tar --zstd -tf - <"$T/out" >/dev/null || fail "-o - into a file: tar --zstd -t rejects it"
[ "$(tail -c 1 "$T/out" | od -An -tx1 | tr -d ' ')" != 00 ] || fail "-o - ends in a zero byte"
"$BIN" --root "$R" snapshot -o - 2>/dev/null </dev/null | zstd -tq ||
	fail "-o - into a pipe: zstd -t rejects the stream"

# a character device: written into, still a character device 1:3
mknod "$T/null" c 1 3
hp snapshot -o "$T/null"
expect_rc 0
[ -c "$T/null" ] && [ "$(stat -c %t:%T "$T/null")" = 1:3 ] ||
	fail "-o a character device replaced it: $(ls -l "$T/null")"

# a FIFO: one valid stream to its reader, still a FIFO after
mkfifo "$T/fifo"
timeout 120 sh -c 'zstd -tq <"$1"; echo $? >"$2"' sh "$T/fifo" "$T/fifo.rc" &
reader=$!
HP_ENV=(timeout 120)
hp snapshot -o "$T/fifo"
HP_ENV=()
expect_rc 0
wait "$reader"
[ "$(cat "$T/fifo.rc" 2>/dev/null)" = 0 ] || fail "-o FIFO: the reader's zstd -t: $(cat "$T/fifo.rc" 2>/dev/null)"
[ -p "$T/fifo" ] || fail "-o FIFO replaced it: $(ls -l "$T/fifo")"

# a symlink to a FIFO (/dev/fd/N of a pipe is one): written through, the link kept
ln -s fifo "$T/fifo-link"
timeout 120 sh -c 'zstd -tq <"$1"; echo $? >"$2"' sh "$T/fifo" "$T/fifo.rc" &
reader=$!
HP_ENV=(timeout 120)
hp snapshot -o "$T/fifo-link"
HP_ENV=()
expect_rc 0
wait "$reader"
[ "$(cat "$T/fifo.rc")" = 0 ] || fail "-o link to a FIFO: the reader's zstd -t failed"
[ -L "$T/fifo-link" ] && [ -p "$T/fifo" ] || fail "-o link to a FIFO replaced something"

# refused, and left as they were: exit 2, the reason, no temporary file beside them
mkdir "$T/dir"
mknod "$T/blk" b 7 250
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$T/sock"
echo keep >"$T/file"
ln -s file "$T/file-link"
ln -s nowhere "$T/dangling"
for p in dir:'it is a directory' blk:'it is a block device' sock:'it is a socket' \
	file-link:'it is a symlink to a file' dangling:'it is a symlink to nothing'; do
	name=${p%%:*} why=${p#*:}
	before=$(stat -c '%F %i %s' "$T/$name")
	hp snapshot -o "$T/$name"
	expect_rc 2
	expect_grep err "Not writing the snapshot to '.*/$name': $why" "-o $name: $(cat "$T/err")"
	[ "$(stat -c '%F %i %s' "$T/$name")" = "$before" ] || fail "-o $name changed it: $(ls -ld "$T/$name")"
done
[ -z "$(ls -A "$T/dir")" ] || fail "-o DIR wrote into it: $(ls -A "$T/dir")"
[ "$(cat "$T/file")" = keep ] || fail "-o a link to a file wrote through it"
[ ! -e "$T/nowhere" ] || fail "-o a dangling link created its target"
ls "$T" | grep -q 'tmp-' && fail "a temporary file is left: $(ls "$T" | grep tmp-)"
true

# The binary never opens the real /sys, /proc or /dev for writing (nor anything else
# outside the --root tree), and check opens no config file for writing at all.
need_tool strace
# LeakSanitizer cannot run under ptrace; the sanitizer tier checks leaks elsewhere.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
newroot dgx8
useconf gpu-p2p
st() { # LOG ARGS...
	local log=$1
	shift
	strace -f -y -e trace=open,openat,openat2,creat -o "$log" "$BIN" --root "$R" --no-color "$@" \
		</dev/null >"$T/out" 2>"$T/err"
	RC=$?
	echo "\$ strace hostprep $* -> exit $RC" >>"$T/transcript"
	expect_exited "$RC" "strace hostprep $*"
}
# opens LOG: "PATH FLAGS" per successful or failed open, paths made absolute
opens() {
	python3 - "$1" <<'PY'
import re, sys
pat = re.compile(r'^\d+\s+(open|openat|openat2|creat)\((?:(AT_FDCWD|-?\d+)(?:<([^>]*)>)?,\s*)?"((?:[^"\\]|\\.)*)"(?:,\s*([A-Z0-9_|]+|\{[^}]*\}))?')
res = re.compile(r'=\s*\d+<([^>]*)>\s*$')
for line in open(sys.argv[1]):
    m = pat.match(line)
    if not m:
        continue
    call, dirfd, dirpath, path, flags = m.groups()
    flags = flags or ""
    if flags.startswith("{"):          # openat2's struct open_how: {flags=..., resolve=...}
        f = re.search(r'flags=([A-Z0-9_|]+)', flags)
        flags = f.group(1) if f else ""
    if call == "creat":
        flags = "O_WRONLY|O_CREAT|O_TRUNC"
    if not path.startswith("/") and dirpath:
        path = dirpath.rstrip("/") + "/" + path
    print(path, flags)
    r = res.search(line.rstrip("\n"))
    if r and r.group(1) != path:
        print(r.group(1), flags)       # what the open resolved to (symlinks followed)
PY
}
check_log() { # LOG WHAT
	opens "$1" >"$T/opens.$2"
	[ -s "$T/opens.$2" ] || { fail "$2: strace logged no open at all"; return; }
	awk -v root="$R" '
		$2 ~ /O_WRONLY|O_RDWR|O_CREAT/ {
			p = $1
			if (index(p, root "/") == 1) next
			if (p == "/dev/null" || p == "/dev/tty" || p ~ /^\/proc\/self\// || p ~ /^\/proc\/thread-self\//) next
			if (p ~ /^\/(sys|proc|dev)\//) print "host kernel write-open: " $0
			else print "write-open outside the root: " $0
		}' "$T/opens.$2" >"$T/bad.$2"
	if [ -s "$T/bad.$2" ]; then
		fail "$2 opened host kernel paths for writing:"
		sed 's/^/    /' "$T/bad.$2" | head
	fi
}
st "$T/apply.strace" apply
expect_rc 0
check_log "$T/apply.strace" apply
grep -q "$R/sys/.*config O_RDWR\|$R/sys/.*config O_WRONLY" "$T/opens.apply" ||
	fail "apply: no config file under the root was opened for writing (did it write at all?)"
st "$T/revert.strace" revert
expect_rc 0
check_log "$T/revert.strace" revert
expect_tree_same
st "$T/check.strace" check
check_log "$T/check.strace" check
if grep -E '/config O_(WRONLY|RDWR)' "$T/opens.check" >"$T/cfgw"; then
	fail "check opened config files for writing:"
	sed 's/^/    /' "$T/cfgw" | head -5
fi
st "$T/dry.strace" apply --dry-run
if grep -E '/config O_(WRONLY|RDWR)' "$T/opens.dry" >"$T/cfgw" 2>/dev/null; then :; fi
opens "$T/dry.strace" | grep -E '/config O_(WRONLY|RDWR)' >"$T/cfgw"
if [ -s "$T/cfgw" ]; then
	fail "apply --dry-run opened config files for writing:"
	sed 's/^/    /' "$T/cfgw" | head -5
fi

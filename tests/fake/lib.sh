# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for tests/fake/cases/*/*.sh, sourced by run.sh inside each case's subshell.
#
# Globals set by run.sh:  BIN HERE SCRATCH PRISTINE FAILWRITE_SO NOSTICK_SO
# Per case:               T (the case's scratch dir), R (its root, after newroot)
# After hp:               RC, $T/out (stdout), $T/err (stderr)
# A case's verdict: ok (exit 0), FAIL (anything else), skipped (skip: exit 77).

# shellcheck disable=SC2034 # FAILED is the case's exit status, read by run.sh
FAILED=0
HPN=0

fail() {
	echo "FAIL: $*"
	FAILED=1
}

note() { echo "# $*"; }

# skip REASON: the case cannot run here (not root, a tool missing): it ends now and is
# reported as skipped, never as ok. A failure recorded before still fails the case.
# Call it at the case's top level (inside $(...) it would only end that subshell).
skip() {
	[ "$FAILED" = 0 ] || exit 1
	echo "SKIPPED: $*"
	exit 77
}

# need_tool NAME...: skip the case unless every tool is installed
need_tool() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 || skip "$t not installed"
	done
}

# need_root WHY: skip the case unless it runs as uid 0
need_root() {
	[ "$(id -u)" = 0 ] || skip "needs root: $*"
}

# expect_exited STATUS WHAT: hostprep's exit status is one of its own (0 ready, 1 not
# ready, 2 usage or config, 3 internal); anything else (a signal is 128+N, 127 a missing
# binary) fails the case whatever the case checks next. A case that kills hostprep on
# purpose (LD_PRELOAD failwrite.so with FAILWRITE_KILL or FAILWRITE_KILL_PATH in HP_ENV)
# may see 137, SIGKILL, and nothing else.
expect_exited() {
	case $1 in 0 | 1 | 2 | 3) return 0 ;; esac
	if [ "$1" = 137 ] && [[ " ${HP_ENV[*]-} " == *" FAILWRITE_KILL"* ]]; then
		return 0
	fi
	if [ "$1" -ge 128 ] 2>/dev/null; then
		fail "$2: hostprep killed by signal $(($1 - 128)) ($(kill -l $(($1 - 128)) 2>/dev/null))"
	else
		fail "$2: exit $1 is not one of hostprep's (0-3)"
	fi
}

# newroot FIXTURE: a fresh copy of a pristine fixture at $R. $REF is what the tree
# must equal when nothing was written: the pristine fixture plus the config files
# the case installed (useconf/dropin keep a private copy for that).
newroot() {
	FIXTURE=$1
	R=$T/root
	REF=$PRISTINE/$FIXTURE
	rm -rf "$R" "$T/ref"
	cp -a "$PRISTINE/$FIXTURE" "$R" || { fail "cannot copy fixture $FIXTURE"; exit 1; }
}

ref_private() {
	if [ "$REF" != "$T/ref" ]; then
		cp -a "$PRISTINE/$FIXTURE" "$T/ref"
		REF=$T/ref
	fi
}

# useconf NAME [MODE]: install configs/NAME.conf as <root>/etc/hostprep/hostprep.conf
useconf() {
	ref_private
	install -m "${2:-0644}" "$HERE/configs/$1.conf" "$R/etc/hostprep/hostprep.conf"
	install -m "${2:-0644}" "$HERE/configs/$1.conf" "$REF/etc/hostprep/hostprep.conf"
}

# dropin NAME FILE: install configs/NAME.conf as <root>/etc/hostprep/hostprep.conf.d/FILE
dropin() {
	ref_private
	local d
	for d in "$R" "$REF"; do
		install -d -m 0755 "$d/etc/hostprep/hostprep.conf.d"
		install -m 0644 "$HERE/configs/$1.conf" "$d/etc/hostprep/hostprep.conf.d/$2"
	done
}

# confchmod MODE PATH: chmod a path below etc/ in both the tree and the reference
confchmod() {
	chmod "$1" "$R/$2" "$REF/$2"
}

# hp ARGS...: run the binary on $R. Environment prefixes go through `env` (HP_ENV array).
hp() {
	HPN=$((HPN + 1))
	if [ ! -x "$BIN" ]; then
		fail "binary $BIN missing"
		RC=127
		: >"$T/out"
		: >"$T/err"
		return
	fi
	env ${HP_ENV[@]+"${HP_ENV[@]}"} "$BIN" --root "$R" --no-color "$@" </dev/null >"$T/out" 2>"$T/err"
	RC=$?
	expect_exited "$RC" "hostprep $*"
	cp "$T/out" "$T/out.$HPN"
	cp "$T/err" "$T/err.$HPN"
	{
		echo "\$ hostprep --root \$R --no-color $* -> exit $RC"
		sed -n '1,80s/^/  | /p' "$T/out"
		sed -n '1,40s/^/  ! /p' "$T/err"
	} >>"$T/transcript"
}

expect_rc() {
	[ "$RC" = "$1" ] || fail "expected exit $1, got $RC ($(tail -c 300 "$T/err" | tr '\n' ' '))"
}

# expect_grep FILE ERE [what]: FILE is out or err (in $T) or a path
expect_grep() {
	local f=$1
	[ -e "$f" ] || f=$T/$1
	grep -Eq -- "$2" "$f" || fail "${3:-$1 does not match /$2/}"
}

expect_no_grep() {
	local f=$1
	[ -e "$f" ] || f=$T/$1
	if grep -Eq -- "$2" "$f"; then
		fail "${3:-$1 matches /$2/ but should not}: $(grep -E -- "$2" "$f" | head -3 | tr '\n' ' ')"
	fi
}

# jqo EXPR: jq over $T/out (stdout of the last hp --json run)
jqo() { jq -r "$@" "$T/out"; }
# ib_counters DEV PORT [NAME=VALUE...]: an RDMA port's error counters, every one hostprep
# judges 0, then the values given (rdma.counters, rdma.flap cases)
ib_counters() {
	local d=$R/sys/class/infiniband/$1/ports/$2/counters c kv
	shift 2
	mkdir -p "$d"
	for c in symbol_error link_error_recovery link_downed port_rcv_errors \
		port_rcv_remote_physical_errors local_link_integrity_errors \
		excessive_buffer_overrun_errors port_xmit_discards; do
		echo 0 >"$d/$c"
	done
	for kv; do echo "${kv#*=}" >"$d/${kv%%=*}"; done
}

# ---------------------------------------------------------------- tree comparison
# Entries: type, mode, path (and link target); file contents by bytes.
# <root>/run/hostprep/ is hostprep's own and is ignored.

treelist() {
	(cd "$1" && find . -path ./run/hostprep -prune -o \
		\( -type l -printf 'l %m %p -> %l\n' -o -printf '%y %m %p\n' \) | LC_ALL=C sort)
}

treesums() {
	(cd "$1" && find . -path ./run/hostprep -prune -o -type f -print0 |
		xargs -0 md5sum | LC_ALL=C sort -k2)
}

# treediff A B: one line per difference, empty when identical
#   "entry: -l 777 ./x -> y" / "+..."      entry only in A / only in B (or changed)
#   "./path +0xOFF: aa -> bb"              a byte that differs (cmp -l)
#   "./path: size differs"                 one file is longer (cmp reports EOF)
treediff() {
	local a=$1 b=$2 f off x y
	diff <(treelist "$a") <(treelist "$b") | sed -n 's/^\([<>]\) /\1/p' |
		sed 's/^</entry: -/; s/^>/entry: +/'
	join -j 2 <(treesums "$a" | awk '{print $1, $2}') <(treesums "$b" | awk '{print $1, $2}') |
		awk '$2 != $3 {print $1}' | while read -r f; do
		cmp -l "$a/$f" "$b/$f" 2>/dev/null | while read -r off x y; do
			printf '%s +0x%x: %02x -> %02x\n' "$f" $((off - 1)) $((8#$x)) $((8#$y))
		done
		if [ "$(stat -c %s "$a/$f")" != "$(stat -c %s "$b/$f")" ]; then
			echo "$f: size differs"
		fi
	done
}

# expect_tree_same [DIR]: $R equals $REF (or DIR), byte for byte
expect_tree_same() {
	local ref=${1:-$REF} d
	d=$(treediff "$ref" "$R")
	if [ -n "$d" ]; then
		fail "tree differs from $(basename "$ref"):"
		echo "$d" | head -40 | sed 's/^/    /'
	fi
}

# expect_tree_diff [DIR] <<EOF ... EOF: the differences must be exactly these lines
expect_tree_diff() {
	local ref=${1:-$REF} d want
	want=$(cat)
	d=$(treediff "$ref" "$R")
	if [ "$d" != "$want" ]; then
		fail "tree differences are not the expected ones (diff expected actual):"
		diff <(echo "$want") <(echo "$d") | head -60 | sed 's/^/    /'
	fi
}

# cfgpath BDF: the sysfs config file of a device, relative to the root (./sys/devices/...)
cfgpath() {
	local p
	p=$(readlink -f "$R/sys/bus/pci/devices/$1") || return 1
	echo ".${p#"$R"}/config"
}

# poke16 BDF OFFSET VALUE: write a little-endian word into a device's config file
poke16() {
	local f
	f=$R/$(cfgpath "$1") || return 1
	# shellcheck disable=SC2059 # the format is the two bytes, built here
	printf "\\x$(printf %02x $(($3 & 0xff)))\\x$(printf %02x $((($3 >> 8) & 0xff)))" |
		dd of="$f" bs=1 seek=$(($2)) conv=notrunc status=none
}

# peek16 BDF OFFSET: read a word (hex, 4 digits)
peek16() {
	local f
	f=$R/$(cfgpath "$1") || return 1
	od -An -tx2 -j $(($2)) -N2 "$f" | tr -d ' \n'
}

# ---------------------------------------------------------------- golden files
# golden NAME: compare normalized $T/out plus "[exit RC]" with golden/NAME;
# UPDATE_GOLDEN=1 writes it instead (review every change by hand before committing).
normalize() {
	sed -e "s|$R|@ROOT@|g" -e "s|$T|@CASE@|g" -e "s|$HERE|@FAKE@|g" -e "s|$SCRATCH|@SCRATCH@|g"
}

golden() {
	local g=$HERE/golden/$1 got=$T/golden.$1
	{ normalize <"$T/out"; echo "[exit $RC]"; } >"$got"
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		if ! cmp -s "$got" "$g"; then
			cp "$got" "$g"
			echo "UPDATED golden/$1"
		fi
		return
	fi
	if [ ! -e "$g" ]; then
		fail "golden/$1 missing (run with UPDATE_GOLDEN=1, then review it)"
		sed 's/^/    /' "$got" | head -40
		return
	fi
	if ! cmp -s "$g" "$got"; then
		fail "output differs from golden/$1 (diff golden actual):"
		diff -u "$g" "$got" | head -80 | sed 's/^/    /'
	fi
}

# ---------------------------------------------------------------- fixture oracle
# oracle_check FIXTURE: validate a pristine fixture with pciutils (an independent
# parser of sysfs and config space) against the hand-written oracle/FIXTURE.acs.
acs_flags() { # VALUE -> "SrcValid+ TransBlk- ..." as lspci prints it
	local v=$((16#$1)) i out="" names=(SrcValid TransBlk ReqRedir CmpltRedir UpstreamFwd EgressCtrl DirectTrans)
	for i in 0 1 2 3 4 5 6; do
		out+="${names[$i]}$( (((v >> i) & 1)) && echo + || echo -) "
	done
	echo "${out% }"
}

oracle_check() {
	local fx=$1 P=$PRISTINE/$1 man=$HERE/oracle/$1.acs
	local L=(lspci -A linux-sysfs -O "sysfs.path=$PRISTINE/$1/sys/bus/pci")
	local S=(setpci -A linux-sysfs -O "sysfs.path=$PRISTINE/$1/sys/bus/pci")
	local bdf off cap ctrl v txt
	command -v lspci >/dev/null || { fail "lspci missing (apt-get install pciutils)"; return; }

	# the same set of functions
	diff <(grep -v '^#' "$man" | awk '{print $1}' | sort) <("${L[@]}" -D -n 2>/dev/null | awk '{print $1}' | sort) \
		>"$T/set.diff" || { fail "lspci sees other functions than oracle/$fx.acs:"; sed 's/^/    /' "$T/set.diff"; }

	while read -r bdf off cap ctrl; do
		case $bdf in '#'* | '') continue ;; esac
		"${L[@]}" -vvv -s "$bdf" >"$T/lspci.$bdf" 2>/dev/null
		case $off in
		-)
			grep -q 'Access Control Services' "$T/lspci.$bdf" && fail "$bdf: lspci shows ACS, oracle says none"
			grep -q 'access denied' "$T/lspci.$bdf" && fail "$bdf: lspci: access denied"
			"${S[@]}" -s "$bdf" ECAP_ACS+0x6.w >/dev/null 2>&1 && fail "$bdf: setpci finds ACS, oracle says none"
			;;
		denied)
			grep -q 'Capabilities: <access denied>' "$T/lspci.$bdf" ||
				fail "$bdf: lspci does not say <access denied>"
			v=$("${S[@]}" -s "$bdf" ECAP_ACS+0x6.w 2>&1) && fail "$bdf: setpci reads ACS Control $v on a 64-byte view"
			[ "$(stat -c %s "$P/$(cd "$P" && R=$P cfgpath "$bdf")")" = 64 ] || fail "$bdf: config is not 64 bytes"
			;;
		*)
			grep -q "Capabilities: \[$off v1\] Access Control Services" "$T/lspci.$bdf" ||
				fail "$bdf: lspci: no 'Capabilities: [$off v1] Access Control Services'"
			txt=$(grep -A2 "Access Control Services" "$T/lspci.$bdf")
			grep -qF "ACSCap:	$(acs_flags "$cap")" <<<"$txt" ||
				fail "$bdf: lspci ACSCap is not $(acs_flags "$cap"): $txt"
			grep -qF "ACSCtl:	$(acs_flags "$ctrl")" <<<"$txt" ||
				fail "$bdf: lspci ACSCtl is not $(acs_flags "$ctrl"): $txt"
			v=$("${S[@]}" -s "$bdf" ECAP_ACS+0x4.w 2>&1)
			[ "$v" = "$cap" ] || fail "$bdf: setpci ECAP_ACS+0x4.w = $v, want $cap"
			v=$("${S[@]}" -s "$bdf" ECAP_ACS+0x6.w 2>&1)
			[ "$v" = "$ctrl" ] || fail "$bdf: setpci ECAP_ACS+0x6.w = $v, want $ctrl"
			# the capability really is at that offset: header word there is 0x000d
			v=$("${S[@]}" -s "$bdf" "0x$off.w" 2>&1)
			[ "$v" = 000d ] || fail "$bdf: word at 0x$off is $v, not the ACS id 000d"
			;;
		esac
	done <"$man"
}

# sysfs_shape_check FIXTURE: attribute files, symlinks, nesting, bus numbers, IOMMU links
sysfs_shape_check() {
	local P=$PRISTINE/$1 d bdf real parent a sz g
	for d in "$P"/sys/bus/pci/devices/*; do
		bdf=$(basename "$d")
		[ -L "$d" ] || fail "$bdf: bus/pci/devices entry is not a symlink"
		case $(readlink "$d") in ../../../devices/pci*/"$bdf" | ../../../devices/pci*/*/"$bdf") ;;
		*) fail "$bdf: bus link $(readlink "$d") is not ../../../devices/pci.../$bdf" ;; esac
		real=$(readlink -f "$d")
		[ -d "$real" ] || fail "$bdf: bus link does not resolve"
		for a in vendor device class subsystem_vendor subsystem_device revision irq numa_node \
			resource enable local_cpulist config; do
			[ -f "$real/$a" ] || fail "$bdf: no $a"
		done
		grep -Eq '^0x[0-9a-f]{4}$' "$real/vendor" || fail "$bdf: vendor $(cat "$real/vendor")"
		grep -Eq '^0x[0-9a-f]{6}$' "$real/class" || fail "$bdf: class $(cat "$real/class")"
		grep -Eqv '^0x[0-9a-f]{16} 0x[0-9a-f]{16} 0x[0-9a-f]{16}$' "$real/resource" &&
			fail "$bdf: resource format"
		sz=$(stat -c %s "$real/config")
		case $1 in *nonroot) [ "$sz" = 64 ] || fail "$bdf: config $sz bytes, want 64" ;;
		*)
			if [ -f "$real/max_link_speed" ]; then
				[ "$sz" = 4096 ] || fail "$bdf: PCIe function with $sz bytes of config"
			else
				[ "$sz" = 256 ] || [ "$sz" = 4096 ] || fail "$bdf: config $sz bytes"
			fi
			;;
		esac
		# config space agrees with the sysfs ids
		[ "$(od -An -tx2 -N2 "$real/config" | tr -d ' ')" = "$(cut -c3- "$real/vendor")" ] ||
			fail "$bdf: config vendor differs from sysfs vendor"
		# nesting: the parent dir is a host bridge or a bridge whose secondary bus is ours
		parent=$(basename "$(dirname "$real")")
		case $parent in
		pci*) [ "${parent#pci}" = "${bdf%:*.*}" ] || fail "$bdf: under host bridge $parent" ;;
		*)
			a=$(od -An -tu1 -j 25 -N1 "$(dirname "$real")/config" | tr -d ' ')
			[ "$a" = $((16#$(echo "$bdf" | cut -d: -f2))) ] ||
				fail "$bdf: parent $parent secondary bus $a does not match"
			;;
		esac
		if [ -d "$P/sys/class/iommu" ]; then
			if [ -L "$real/iommu_group" ]; then
				g=$(readlink -f "$real/iommu_group")
				[ -f "$g/type" ] || fail "$bdf: iommu_group has no type"
				[ "$(readlink -f "$g/devices/$bdf")" = "$real" ] ||
					fail "$bdf: group $(basename "$g") does not link back"
				case $(readlink "$real/iommu_group") in ../*kernel/iommu_groups/*) ;;
				*) fail "$bdf: iommu_group link $(readlink "$real/iommu_group")" ;; esac
			elif [ "$(cat "$real/class")" != 0x080600 ]; then
				fail "$bdf: no iommu_group on a host with an IOMMU"
			fi
		else
			[ -e "$real/iommu_group" ] && fail "$bdf: iommu_group without an IOMMU"
		fi
	done
	for a in proc/cmdline proc/sys/kernel/hostname proc/sys/kernel/osrelease; do
		[ -s "$P/$a" ] || fail "no $a"
	done
	if ! [ -d "$P/etc/hostprep" ] || [ -n "$(ls -A "$P/etc/hostprep")" ]; then fail "etc/hostprep missing or not empty"; fi
	if ! [ -d "$P/run" ] || [ -n "$(ls -A "$P/run")" ]; then fail "run/ missing or not empty"; fi
}

# ---------------------------------------------------------------- originals record
# seal BODY: the record line hostprep writes for BODY ("<body> crc32:<zlib crc32 of body>")
seal() {
	python3 -c 'import sys, zlib; b = sys.argv[1]; print("%s crc32:%08x" % (b, zlib.crc32(b.encode())))' "$1"
}

# expect_sealed FILE: every line of the record carries the checksum of the rest of the line
expect_sealed() {
	python3 - "$1" <<'PY' || fail "$1: a line without a matching crc32 seal"
import re, sys, zlib
for line in open(sys.argv[1], "rb").read().split(b"\n")[:-1]:
    m = re.fullmatch(rb"(.*) crc32:([0-9a-f]{8})", line)
    if not m or int(m.group(2), 16) != zlib.crc32(m.group(1)):
        print("unsealed: %r" % line)
        sys.exit(1)
PY
}

# reseal FILE: give a record hand-edited in a case the header hostprep writes (line 1
# counts the lines after it; an existing header is replaced): a whole record again
reseal() {
	python3 - "$1" <<'PY'
import re, sys, zlib
p = sys.argv[1]
lines = open(p, "rb").read().split(b"\n")
if lines and lines[-1] == b"":
    lines.pop()
if lines and re.fullmatch(rb"hostprep-record 2 lines \d+ crc32:[0-9a-f]{8}", lines[0]):
    lines.pop(0)
h = b"hostprep-record 2 lines %d" % len(lines)
with open(p, "wb") as f:
    f.write(b"%s crc32:%08x\n" % (h, zlib.crc32(h)) + b"".join(l + b"\n" for l in lines))
PY
}

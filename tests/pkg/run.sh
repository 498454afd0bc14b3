#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Package tier: build the .deb and the .rpm from a clean export
# (packaging/build.sh), lint them, and check what they contain and do.
#
#   tests/pkg/run.sh [OUTDIR]      default build/pkg-test
#
# Checks: lintian on the .deb and the .dsc (no error, no warning; overrides
# only in packaging/debian/*lintian-overrides, each with its reason);
# rpmlint on the spec and the .rpm (no error); the file lists against
# tests/pkg/expected-{deb,rpm}.list; the Makefile VERSION in both packages and
# in the packaged binary's --version; the maintainer scripts enable the unit
# but start and restart nothing (a start runs 'hostprep apply').
# Prints one line per check and "pkg: N passed, N failed".
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
OUT=$(realpath -m "${1:-$TOP/build/pkg-test}")
PASS=0 FAIL=0

ok() { echo "PASS $1"; PASS=$((PASS + 1)); }
bad() { echo "FAIL $1"; [ -n "${2:-}" ] && sed 's/^/  | /' <<<"$2"; FAIL=$((FAIL + 1)); }
# (no check passed at all: nothing was checked, which is no pass either)
finish() {
	echo "pkg: $PASS passed, $FAIL failed"
	[ $FAIL -eq 0 ] && [ $PASS -eq 0 ] && echo "pkg: FAILED: no check passed: nothing was checked"
	[ $FAIL -eq 0 ] && [ $PASS -gt 0 ]
	exit
}
check_eq() { if [ "$1" = "$2" ]; then ok "$3"; else bad "$3" "got '$1', want '$2'"; fi; }

V=$(sed -n 's/^VERSION *:= *//p' "$TOP/Makefile")

# --- build ---
if log=$("$TOP/packaging/build.sh" deb "$OUT/deb" 2>&1); then ok "deb: built from a clean export"; else
	bad "deb: built from a clean export" "$log"; fi
if log=$("$TOP/packaging/build.sh" rpm "$OUT/rpm" 2>&1); then ok "rpm: built from a clean export"; else
	bad "rpm: built from a clean export" "$log"; fi
DEB=$(ls "$OUT"/deb/hostprep_*.deb 2>/dev/null | head -n1)
DSC=$(ls "$OUT"/deb/hostprep_*.dsc 2>/dev/null | head -n1)
RPM=$(ls "$OUT"/rpm/RPMS/*/hostprep-[0-9]*.rpm 2>/dev/null | head -n1)
SPEC=$OUT/rpm/SPECS/hostprep.spec
[ -n "$DEB" ] && [ -n "$DSC" ] && [ -n "$RPM" ] || finish

# --- lint ---
# lintian: E: and W: are failures; I:/P:/N: are information.
lint=$(lintian --no-cfg --display-level '>=warning' "$DEB" "$DSC" 2>&1)
if grep -qE '^[EW]: ' <<<"$lint"; then bad "lintian .deb .dsc: no error, no warning" "$lint"
else ok "lintian .deb .dsc: no error, no warning"; fi
# rpmlint: errors fail (it exits non-zero and says "N errors").
# (filters, each with its reason: packaging/hostprep.rpmlintrc)
lint=$(rpmlint -r "$TOP/packaging/hostprep.rpmlintrc" "$SPEC" "$RPM" 2>&1); rc=$?
if [ $rc -eq 0 ] && ! grep -qE ': E: ' <<<"$lint"; then ok "rpmlint spec .rpm: no error"
else bad "rpmlint spec .rpm: no error" "$lint"; fi

# --- contents ---
deb_list() { dpkg-deb -c "$1" | awk '{ print $6 }' | sed -e 's|^\./|/|' -e 's|/$||' | grep -v '^/\?$' | sort; }
# (rpm's /usr/lib/.build-id links are named by the binary's hash: not listed)
rpm_list() { rpm -qlp "$1" 2>/dev/null | grep -v '^/usr/lib/\.build-id' | sort; }
d=$(diff -u "$HERE/expected-deb.list" <(deb_list "$DEB")) && ok "deb: file list = expected-deb.list" ||
	bad "deb: file list = expected-deb.list" "$d"
d=$(diff -u "$HERE/expected-rpm.list" <(rpm_list "$RPM")) && ok "rpm: file list = expected-rpm.list" ||
	bad "rpm: file list = expected-rpm.list" "$d"

# --- what the docs point to is shipped (the man pages, the units' Documentation=, the
# journal catalog name /usr/share/doc/hostprep/...: dh_compress must not rename them)
x=$(mktemp -d)
dpkg-deb -x "$DEB" "$x"
named=$(for f in "$x"/usr/share/man/*/* "$x"/lib/systemd/system/* "$x"/usr/lib/systemd/catalog/*; do
	zcat -f "$f"; done 2>/dev/null | sed 's/\\&//g; s/\\f[BIR]//g' |
	grep -ao '/usr/share/doc/hostprep/[A-Za-z0-9_./@-]*[A-Za-z0-9]' | sort -u)
rm -rf "$x"
missing=$(comm -23 <(echo "$named") <(deb_list "$DEB"))
if [ -n "$named" ] && [ -z "$missing" ]; then ok "deb: every /usr/share/doc/hostprep path the docs name is shipped"
else bad "deb: every /usr/share/doc/hostprep path the docs name is shipped" "named: $named
missing: $missing"; fi

# --- one version ---
check_eq "$(dpkg-deb -f "$DEB" Version)" "$V" "deb: Version = Makefile VERSION"
check_eq "$(rpm -qp --qf '%{VERSION}' "$RPM" 2>/dev/null)" "$V" "rpm: Version = Makefile VERSION"
x=$OUT/deb-x
rm -rf "$x" && dpkg-deb -x "$DEB" "$x"
check_eq "$("$x/usr/bin/hostprep" --version 2>&1)" "hostprep $V" "packaged hostprep --version"

# --- what installing and removing do ---
# (debhelper's start snippet is 'deb-systemd-invoke $_dh_action': any
# invoke in postinst is a start or restart)
c=$OUT/deb-ctl
rm -rf "$c" && dpkg-deb -e "$DEB" "$c"
if grep -q 'deb-systemd-helper.*enable.*hostprep.service' "$c/postinst" 2>/dev/null; then
	ok "deb postinst: enables hostprep.service"; else bad "deb postinst: enables hostprep.service" "$(cat "$c/postinst")"; fi
if cat "$c/postinst" "$c/preinst" 2>/dev/null | grep -v '^[[:space:]]*#' |
	grep -qE 'deb-systemd-invoke|_dh_action=|systemctl.*(start|restart)'; then
	bad "deb postinst: starts/restarts nothing" "$(grep -nE 'invoke|systemctl' "$c/postinst")"
else ok "deb postinst: starts/restarts nothing"; fi
if grep -q "hostprep revert" "$c/prerm" 2>/dev/null; then ok "deb prerm: names 'hostprep revert'"
else bad "deb prerm: names 'hostprep revert'"; fi
scripts=$(rpm -qp --scripts "$RPM" 2>/dev/null)
# (commands only: the scripts' comments may well name 'systemctl restart')
if grep -v '^[[:space:]]*#' <<<"$scripts" | grep -qE 'try-restart|mark-restart|systemctl (start|restart)'; then
	bad "rpm scripts: start/restart nothing" "$scripts"; else ok "rpm scripts: start/restart nothing"; fi
if grep -q 'journalctl --update-catalog' <<<"$scripts"; then ok "rpm %post: refreshes the journal catalog"
else bad "rpm %post: refreshes the journal catalog" "$scripts"; fi
# Debian: systemd's dpkg trigger on /usr/lib/systemd/catalog runs
# journalctl --update-catalog; it fires only for files under that directory.
check_eq "$(deb_list "$DEB" | grep -c '^/usr/lib/systemd/catalog/hostprep.catalog$')" 1 \
	"deb: catalog where systemd's trigger refreshes it"
finish

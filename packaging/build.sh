#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the Debian or RPM package from a clean export of the tree: the files
# git tracks or would track (not ignored), as they are in the work tree (so an
# uncommitted edit is built too, but never a build product).
#
#   packaging/build.sh deb OUTDIR        .deb, .dsc, .tar.xz, .buildinfo, .changes
#   packaging/build.sh rpm OUTDIR        .rpm, .src.rpm, the spec
#   PKG_VERSION=X packaging/build.sh ... a rebuild at version X (Makefile and
#                                        changelog of the export only; tests)
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
kind=${1:?usage: $0 deb|rpm OUTDIR}
out=$(realpath -m "${2:?usage: $0 deb|rpm OUTDIR}")

mk_version() { sed -n 's/^VERSION *:= *//p' "$1/Makefile"; }
V=$(mk_version "$TOP")
[ -n "$V" ] || { echo "build.sh: no VERSION in the Makefile" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out"
export_tree() {
	local dst=$1
	mkdir -p "$dst"
	(cd "$TOP" && git ls-files -z --cached --others --exclude-standard | xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' _ |
		tar --null -T - -cf -) | tar -C "$dst" -xf -
	if [ -n "${PKG_VERSION:-}" ]; then
		sed -i "s/^VERSION *:= .*/VERSION    := $PKG_VERSION/" "$dst/Makefile"
		{
			printf 'hostprep (%s) unstable; urgency=medium\n\n  * Rebuild at %s.\n\n' "$PKG_VERSION" "$PKG_VERSION"
			printf ' -- hostprep developers <hostprep@lists.example.org>  %s\n\n' "$(date -R)"
			cat "$dst/packaging/debian/changelog"
		} >"$dst/packaging/debian/changelog.new"
		mv "$dst/packaging/debian/changelog.new" "$dst/packaging/debian/changelog"
	fi
}

V=${PKG_VERSION:-$V}
src=$out/hostprep-$V
export_tree "$src"

case "$kind" in
deb)
	cp -a "$src/packaging/debian" "$src/debian"
	cv=$(cd "$src" && dpkg-parsechangelog -SVersion)
	[ "$cv" = "$V" ] || {
		echo "build.sh: packaging/debian/changelog says $cv, the Makefile VERSION $V" >&2
		exit 1
	}
	(cd "$src" && dpkg-buildpackage -us -uc -sa) >"$out/build.log" 2>&1 ||
		{ tail -n 30 "$out/build.log" >&2; exit 1; }
	;;
rpm)
	mkdir -p "$out"/{SOURCES,SPECS}
	sed "s/@VERSION@/$V/g" "$src/packaging/hostprep.spec.in" >"$out/SPECS/hostprep.spec"
	tar -C "$out" -czf "$out/SOURCES/hostprep-$V.tar.gz" "hostprep-$V"
	# --nodeps: on Debian the rpm database is empty, so BuildRequires cannot
	# be checked by rpm; the build dependencies are Debian's (tests/deps.sh pkg).
	load=()
	[ "$(rpm --eval '%{_unitdir}')" = '%{_unitdir}' ] && load=(--load "$src/packaging/rpm-macros.systemd")
	rpmbuild "${load[@]}" -ba --nodeps --define "_topdir $out" "$out/SPECS/hostprep.spec" \
		>"$out/build.log" 2>&1 || { tail -n 30 "$out/build.log" >&2; exit 1; }
	;;
*)
	echo "usage: $0 deb|rpm OUTDIR" >&2
	exit 2
	;;
esac
rm -rf "$src"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install what a make target needs, only when missing. apt-get on
# Debian/Ubuntu, dnf on Fedora/RHEL. Usage: tests/deps.sh runtime|test|bench|pkg|fuzz|vm
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kind=${1:-runtime}

apt_build=(gcc make pkg-config libpci-dev libkmod-dev libibverbs-dev libsystemd-dev
	   libinih-dev libjson-c-dev zlib1g-dev scdoc) # scdoc: make man
apt_test=(libcmocka-dev python3 pciutils strace diffutils jq gcc
	  dbus-daemon python3-dbus python3-gi # the fake systemd bus (tests/fake/dbus)
	  mandoc groff-base bash zsh # tests/doc: man page lint, completion harnesses
	  prometheus) # promtool: tests/fake 160-163 check hostprep.prom
# make bench (tests/bench): strace counts syscalls and bytes, pciutils runs the NCCL loop
apt_bench=(python3 pciutils strace gcc)
dnf_bench=(python3 pciutils strace gcc)
# the package tier (tests/pkg): debhelper builds the .deb, rpm has rpmbuild;
# scdoc is a build dependency of both packages (the man pages)
apt_pkg=(debhelper dpkg-dev lintian rpm rpmlint scdoc)
# the fuzz tier (tests/fuzz): clang with libFuzzer (libclang_rt.fuzzer*.a: libclang-rt-14-dev
# on Debian 12, compiler-rt on Fedora); libFuzzer's own ASan/UBSan runtimes come with them
apt_fuzz=(clang-14 libclang-rt-14-dev)
dnf_fuzz=(clang compiler-rt)
dnf_pkg=(rpm-build rpmlint scdoc systemd-rpm-macros dpkg-dev debhelper lintian)
dnf_build=(gcc make pkgconf-pkg-config pciutils-devel kmod-devel rdma-core-devel
	   systemd-devel inih-devel json-c-devel zlib-devel scdoc)
dnf_test=(libcmocka-devel python3 pciutils strace diffutils jq gcc
	  dbus-daemon python3-dbus python3-gobject mandoc groff-base bash zsh)

sudo_maybe() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_missing() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			echo "$p"
	done
}

install_apt() {
	local missing
	missing=$(apt_missing "$@")
	[ -z "$missing" ] && return 0
	echo "deps: installing $(echo $missing)"
	sudo_maybe env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	# shellcheck disable=SC2086
	sudo_maybe env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
}

install_dnf() {
	local missing=() p
	for p in "$@"; do rpm -q "$p" >/dev/null 2>&1 || missing+=("$p"); done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "deps: installing ${missing[*]}"
	sudo_maybe dnf install -y -q "${missing[@]}"
}

case "$kind" in
runtime) apt_pkgs=("${apt_build[@]}"); dnf_pkgs=("${dnf_build[@]}") ;;
test) apt_pkgs=("${apt_build[@]}" "${apt_test[@]}"); dnf_pkgs=("${dnf_build[@]}" "${dnf_test[@]}") ;;
bench) apt_pkgs=("${apt_build[@]}" "${apt_bench[@]}"); dnf_pkgs=("${dnf_build[@]}" "${dnf_bench[@]}") ;;
pkg) apt_pkgs=("${apt_build[@]}" "${apt_pkg[@]}"); dnf_pkgs=("${dnf_build[@]}" "${dnf_pkg[@]}") ;;
fuzz) apt_pkgs=("${apt_build[@]}" "${apt_fuzz[@]}"); dnf_pkgs=("${dnf_build[@]}" "${dnf_fuzz[@]}") ;;
vm) exec "$here/vm/deps.sh" ;;
*) echo "usage: $0 runtime|test|bench|pkg|fuzz|vm" >&2; exit 2 ;;
esac

if command -v apt-get >/dev/null 2>&1; then
	install_apt "${apt_pkgs[@]}"
elif command -v dnf >/dev/null 2>&1; then
	install_dnf "${dnf_pkgs[@]}"
else
	echo "deps: neither apt-get nor dnf found; install by hand: ${apt_pkgs[*]}" >&2
	exit 1
fi

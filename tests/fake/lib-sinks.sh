# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the [Sinks] cases (160-179), sourced by them after lib.sh.
PROM_DIR=var/lib/prometheus/node-exporter
NFD_DIR=etc/kubernetes/node-feature-discovery/features.d

# sink_dirs: create the directories node_exporter and NFD would have installed
sink_dirs() {
	mkdir -p "$R/$PROM_DIR" "$R/$NFD_DIR"
}

# expect_promtool FILE: the independent check of the exposition format
expect_promtool() {
	if ! command -v promtool >/dev/null; then
		fail "promtool missing (tests/deps.sh test installs it, without the Prometheus server)"
		return
	fi
	promtool check metrics <"$1" >"$T/promtool.out" 2>&1 ||
		fail "promtool check metrics $1: $(tr '\n' ' ' <"$T/promtool.out")"
}

# expect_nfd_rules FILE: every line prefix/name[=value] within NFD's and Kubernetes' label
# rules, the prefix feature.node.kubernetes.io or a sub-namespace of it (the namespaces
# nfd-master always allows); an unprefixed name (auto-prefixed by NFD only until its
# DisableAutoPrefix gate becomes the default) fails.
expect_nfd_rules() {
	local f=$1 line name value ns re='^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$'
	local nsre='^([a-z0-9]([-a-z0-9]*[a-z0-9])?\.)*feature\.node\.kubernetes\.io$'
	[ "$(stat -c %s "$f")" -le 65536 ] || fail "$f larger than 64 kB"
	while IFS= read -r line; do
		name=${line%%=*}
		value=${line#*=}
		[ "$line" = "$name" ] && value=
		ns=${name%/*}
		[ "$ns" != "$name" ] || { fail "NFD name '$name' has no namespace"; continue; }
		name=${name#*/}
		[[ $ns =~ $nsre ]] && [ ${#ns} -le 253 ] || fail "NFD namespace '$ns' not always allowed"
		[[ $name =~ $re ]] && [ ${#name} -ge 1 ] && [ ${#name} -le 63 ] || fail "NFD name '$name' invalid"
		[[ $value =~ $re ]] && [ ${#value} -le 63 ] || fail "NFD value '$value' of $name invalid"
	done <"$f"
}

# expect_no_temp DIR: no temp file left behind by the atomic write
expect_no_temp() {
	local left
	left=$(find "$1" -mindepth 1 -name '.*')
	[ -z "$left" ] || fail "temp files left in $1: $left"
}

# sink_golden FILE NAME: FILE (duration normalized) equals golden/NAME
sink_golden() {
	local got=$T/golden.$2
	sed 's/^\(hostprep_last_run_duration_seconds\) [0-9]*\.[0-9]\{6\}$/\1 @DURATION@/' "$1" >"$got"
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		cmp -s "$got" "$HERE/golden/$2" || { cp "$got" "$HERE/golden/$2"; echo "UPDATED golden/$2"; }
		return
	fi
	cmp -s "$HERE/golden/$2" "$got" || {
		fail "$1 differs from golden/$2:"
		diff -u "$HERE/golden/$2" "$got" | head -40
	}
}

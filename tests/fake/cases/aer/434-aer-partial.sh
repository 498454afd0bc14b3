# [AER] counter files that are only partly there (issue 25): the kernel shows a function's
# three aer_dev_* files together, and on a root port the three aer_rootport_total_err_* with
# them (drivers/pci/pcie/aer.c, aer_stats_attrs_are_visible()). A set that is neither whole
# nor empty is unknown, naming what is missing beside what is there: never "no AER" (the
# skip) and never a pass. Every subset of an endpoint's three files (1a:00.0), every subset
# of a root port's six (15:01.0, PCIe type 4 read from its config space), and a root port
# whose type cannot be read (its config cut to 64 bytes: unprivileged), where the kernel not
# showing any of the totals says it is no root port.
newroot aer-dgx8
printf '[AER]\nFatal=off\nNonFatal=off\n' >"$R/etc/hostprep/hostprep.conf"
DEV=(aer_dev_correctable aer_dev_nonfatal aer_dev_fatal)
RP=(aer_rootport_total_err_cor aer_rootport_total_err_nonfatal aer_rootport_total_err_fatal)
fndir() { dirname "$(find "$R/sys/devices" -path "*/$1/vendor")"; }
EP=0000:1a:00.0
PORT=0000:15:01.0
mkdir -p "$T/keep"
cp -a "$(fndir $EP)" "$T/keep/ep"
cp -a "$(fndir $PORT)" "$T/keep/port"

# keep_only DIR BACKUP MASK NAMES...: the files of NAMES whose bit is in MASK are there
keep_only() {
	local dir=$1 backup=$2 mask=$3 i=0 f
	shift 3
	for f in "$@"; do
		rm -f "$dir/$f"
		if [ $((mask >> i & 1)) = 1 ]; then cp -a "$backup/$f" "$dir/$f"; fi
		i=$((i + 1))
	done
}
# names MASK WANT NAMES...: the names whose bit is WANT (1 there, 0 missing), ", " joined
names() {
	local mask=$1 want=$2 i=0 f out=""
	shift 2
	for f in "$@"; do
		if [ $((mask >> i & 1)) = "$want" ]; then out="$out${out:+, }$f"; fi
		i=$((i + 1))
	done
	echo "$out"
}
verdict() { jq -r --arg o "$1" '.results[] | select(.check == "pcie.aer" and .object == $o) | .verdict' "$T/out"; }
actual() { jq -r --arg o "$1" '.results[] | select(.check == "pcie.aer" and .object == $o) | .actual' "$T/out"; }
absent() { actual host | sed -n 's/^no AER counters on \([0-9]*\) of the .*/\1/p'; }

# The endpoint: 2^3 sets. All: pass; none: one more function without counters (9, not 8).
for m in 0 1 2 3 4 5 6 7; do
	keep_only "$(fndir $EP)" "$T/keep/ep" "$m" "${DEV[@]}"
	hp --json check
	case $m in
	7) [ "$(verdict $EP)" = pass ] || fail "endpoint, all files: $(verdict $EP)" ;;
	0)
		[ -z "$(verdict $EP)" ] || fail "endpoint, no file: a result $(verdict $EP)"
		[ "$(absent)" = 9 ] || fail "endpoint, no file: not counted absent: $(actual host)"
		;;
	*)
		[ "$(verdict $EP)" = unknown ] || fail "endpoint, files $m: $(verdict $EP), not unknown"
		want="$(names "$m" 0 "${DEV[@]}") missing beside $(names "$m" 1 "${DEV[@]}")"
		[ "$(actual $EP)" = "$want" ] || fail "endpoint, files $m: '$(actual $EP)', want '$want'"
		[ "$(absent)" = 8 ] || fail "endpoint, files $m: counted as without AER: $(actual host)"
		;;
	esac
done
keep_only "$(fndir $EP)" "$T/keep/ep" 7 "${DEV[@]}"

# The root port: 2^6 sets of its own three and the three totals.
ALL=("${DEV[@]}" "${RP[@]}")
for m in $(seq 0 63); do
	keep_only "$(fndir $PORT)" "$T/keep/port" "$m" "${ALL[@]}"
	hp --json check
	case $m in
	63)
		[ "$(verdict $PORT)" = pass ] || fail "root port, all six: $(verdict $PORT)"
		[ "$(actual $PORT)" = "fatal 0, nonfatal 0, correctable 0; received from below: fatal 0, nonfatal 1, correctable 12" ] ||
			fail "root port, all six: $(actual $PORT)"
		;;
	0) [ -z "$(verdict $PORT)" ] && [ "$(absent)" = 9 ] || fail "root port, none: $(verdict $PORT), $(actual host)" ;;
	*)
		[ "$(verdict $PORT)" = unknown ] || fail "root port, files $m: $(verdict $PORT), not unknown"
		want="$(names "$m" 0 "${ALL[@]}") missing beside $(names "$m" 1 "${ALL[@]}")"
		[ "$(actual $PORT)" = "$want" ] || fail "root port, files $m: '$(actual $PORT)', want '$want'"
		;;
	esac
done
# the two the issue names: the correctable total gone, and a function's correctable file gone
keep_only "$(fndir $PORT)" "$T/keep/port" $((63 & ~8)) "${ALL[@]}"
hp check
expect_rc 1
keep_only "$(fndir $PORT)" "$T/keep/port" 63 "${ALL[@]}"
keep_only "$(fndir $EP)" "$T/keep/ep" 4 "${DEV[@]}"
hp --json check
[ "$(actual $EP)" = "aer_dev_correctable, aer_dev_nonfatal missing beside aer_dev_fatal" ] ||
	fail "fatal alone: $(actual $EP)"
expect_rc 1
keep_only "$(fndir $EP)" "$T/keep/ep" 7 "${DEV[@]}"

# A root port whose type cannot be read: none of the totals is the kernel saying it is no
# root port (its own three counted); some of them is still partial.
head -c 64 "$T/keep/port/config" >"$(fndir $PORT)/config"
keep_only "$(fndir $PORT)" "$T/keep/port" 7 "${ALL[@]}"
hp --json check
[ "$(verdict $PORT)" = pass ] && [ "$(actual $PORT)" = "fatal 0, nonfatal 0, correctable 0" ] ||
	fail "type unread, no totals: $(verdict $PORT) $(actual $PORT)"
keep_only "$(fndir $PORT)" "$T/keep/port" $((7 | 32)) "${ALL[@]}"
hp --json check
[ "$(verdict $PORT)" = unknown ] || fail "type unread, one total: $(verdict $PORT)"
[ "$(actual $PORT)" = "aer_rootport_total_err_cor, aer_rootport_total_err_nonfatal missing beside aer_dev_correctable, aer_dev_nonfatal, aer_dev_fatal, aer_rootport_total_err_fatal" ] ||
	fail "type unread, one total: $(actual $PORT)"
keep_only "$(fndir $PORT)" "$T/keep/port" 63 "${ALL[@]}"
hp --json check
[ "$(verdict $PORT)" = pass ] || fail "type unread, all six: $(verdict $PORT)"
true

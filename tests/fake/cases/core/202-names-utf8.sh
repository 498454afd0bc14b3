# Names that are not UTF-8 (issue 17 item 12): RDMA device names may hold any byte but
# '/' and whitespace. Every JSON output stays valid UTF-8 (the name escaped as
# docs/CONTRACT.md says: \xNN), the table escapes them, nothing raw reaches the terminal.

rename_rdma() {
	local link=$R/sys/class/infiniband/$1 real
	real=$(readlink -f "$link")
	mv "$real" "$(dirname "$real")/$2"
	ln -s "$(dirname "$(readlink "$link")")/$2" "$R/sys/class/infiniband/$2"
	rm "$link"
}

# clean_text FILE WHAT: valid UTF-8, no control character but the newline
clean_text() {
	python3 -c '
import sys
t = open(sys.argv[1], encoding="utf-8", errors="strict").read()
bad = [c for c in t if (ord(c) < 0x20 and c != "\n") or 0x7f <= ord(c) <= 0x9f]
sys.exit("control characters %r" % bad if bad else 0)' "$1" 2>"$T/text.err" ||
		fail "$2: $(tail -1 "$T/text.err")"
}

# strict_json FILE WHAT: parses as JSON from strictly decoded UTF-8
strict_json() {
	python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8", errors="strict"))' "$1" 2>"$T/json.err" ||
		fail "$2 is not valid UTF-8 JSON: $(tail -1 "$T/json.err")"
}

newroot ib-gpu
useconf rdma-ib-gpu
rename_rdma mlx5_6 "$(printf 'mlx5_6\377')"
rename_rdma mlx5_5 "$(printf 'mlx5_5\303')"
rename_rdma mlx5_4 "$(printf 'mlx5_4\001\033[2J')"
sed -i 's/^Select=mlx5_\[0-7\]$/Select=mlx5_[0-7]*/' "$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 1
strict_json "$R/run/hostprep/report.json" report.json
clean_text "$T/out" "check table"
expect_grep out 'rdma\.port +mlx5_6\\xff/1 '
expect_grep out 'rdma\.port +mlx5_5\\xc3/1 '
expect_grep out 'rdma\.port +mlx5_4\\x01\\x1b\[2J/1 '
hp --json check
strict_json "$T/out" "check --json"
[ "$(jqo '.results[] | select(.check == "rdma.port") | .object' | grep -c 'mlx5_6\\xff/1')" = 1 ] ||
	fail "check --json: mlx5_6 not escaped as \\xff"
hp --json status
strict_json "$T/out" "status --json"
hp status
clean_text "$T/out" "status table"
expect_grep out 'rdma\.port +mlx5_6\\xff/1 ' "status shows the name otherwise than check"
hp --json rdma
strict_json "$T/out" "rdma --json"
[ "$(jqo '.devices[].name' | grep -c '^mlx5_5\\xc3$')" = 1 ] || fail "rdma --json: mlx5_5 not escaped"
hp rdma
clean_text "$T/out" "rdma table"
expect_grep out '^mlx5_6\\xff +1 ' 
hp --json topology
strict_json "$T/out" "topology --json"
true

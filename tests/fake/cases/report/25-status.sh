# status prints the last report without reading the kernel: it works even when
# the tree's sysfs is gone, and it matches what apply reported.
newroot dgx8
useconf gpu-p2p
hp --json apply
expect_rc 0
cp "$T/out" "$T/apply.json"
rm -rf "$R/sys"
hp --json status
expect_rc 0
jq -S . "$T/apply.json" >"$T/a" 2>/dev/null || fail "apply --json is not JSON"
jq -S . "$T/out" >"$T/b" 2>/dev/null || fail "status --json is not JSON"
cmp -s "$T/a" "$T/b" || { fail "status --json differs from apply --json:"; diff "$T/a" "$T/b" | head -20; }
jq -S . "$R/run/hostprep/report.json" >"$T/c" 2>/dev/null || fail "report.json is not JSON"
cmp -s "$T/a" "$T/c" || fail "report.json differs from apply --json"
[ "$(jq -r .time "$T/b")" = 2023-11-14T22:13:20Z ] || fail "report time is not SOURCE_DATE_EPOCH"
[ "$(jq -r .host "$T/b")" = dgx8-fake ] || fail "report host is not dgx8-fake"
[ "$(jq -r .schema "$T/b")" = 1 ] || fail "schema is not 1"

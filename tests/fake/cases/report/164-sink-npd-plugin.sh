# fleet/kubernetes/npd/hostprep-plugin.json is a custom plugin monitor config NPD accepts (the
# fields its loader requires), and `hostprep status` speaks NPD's exit-code protocol:
# 0 OK (ready), 1 NonOK (not ready, no report yet).
J=$HERE/../../fleet/kubernetes/npd/hostprep-plugin.json
jq -e '
	.plugin == "custom" and (.source | type == "string" and length > 0) and
	(.pluginConfig.invoke_interval | test("^[0-9]+(s|m)$")) and
	(.pluginConfig.timeout | test("^[0-9]+(s|m)$")) and
	(.pluginConfig.max_output_length | type == "number") and
	(.pluginConfig.concurrency | type == "number") and
	(.conditions | length > 0 and all(.type and .reason and .message)) and
	([.conditions[].type] as $c | .rules | length > 0 and
		all((.type == "permanent" or .type == "temporary") and
		    (.type == "temporary" or (.condition as $x | $c | index($x) != null)) and
		    .reason and (.path | startswith("/")) and (.timeout | test("^[0-9]+s$"))))
' "$J" >/dev/null || fail "$J is not a valid custom plugin monitor config"
[ "$(jq -r '.rules[0].args | index("status") != null' "$J")" = true ] || fail "the rule does not run 'hostprep status'"
newroot dgx8
useconf gpu-p2p
hp --no-color status
expect_rc 1
hp check
hp --no-color status
expect_rc 1
hp apply
hp --no-color status
expect_rc 0
[ "$(head -c 80 "$T/out" | head -1)" != "" ] || fail "status prints nothing NPD could use as a message"

# p2p.json lists every GPU pair, a list quadratic in endpoints: up to 4096 pairs it is
# whole, past them it is empty and pairs_omitted says how many it would hold (issue 26's
# bench: 100 GPUs and 100 NICs made 15,000 pairs and 50 MB of memory at apply; 1,600
# endpoints took gigabytes). mkroot.py gpus-N: N GPUs alone on root ports, N(N-1)/2 pairs:
# 91 GPUs 4095 pairs (listed), 92 GPUs 4186 (omitted); p2p.env is written either way.
for n in 91 92; do
	R=$T/root-$n
	rm -rf "$R"
	python3 "$HERE/mkroot.py" "gpus-$n" "$R" || { fail "mkroot.py gpus-$n"; continue; }
	install -m 0644 "$HERE/configs/gpu-p2p.conf" "$R/etc/hostprep/hostprep.conf"
	hp apply
	expect_rc 0
	j=$R/run/hostprep/p2p.json
	[ -f "$j" ] || { fail "gpus-$n: no p2p.json"; continue; }
	[ -f "$R/run/hostprep/p2p.env" ] || fail "gpus-$n: no p2p.env"
	got=$(jq -r '"\(.devices | length) \(.pairs | length) \(.pairs_omitted // "none")"' "$j")
	if [ "$n" = 91 ]; then
		[ "$got" = "91 4095 none" ] || fail "gpus-91: want 91 devices, 4095 pairs listed: $got"
		expect_no_grep err "GPU pairs exceed" "gpus-91: a warning under the cap"
	else
		[ "$got" = "92 0 4186" ] || fail "gpus-92: want 92 devices, no pair, 4186 omitted: $got"
		expect_grep err "p2p\.json: 4186 GPU pairs exceed the 4096 listed, none listed\." "gpus-92: the cap is not said"
	fi
done

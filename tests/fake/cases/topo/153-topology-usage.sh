# topology takes no argument; a bad [Topology] key is a config error (exit 2, file:line).
newroot dgx8
hp topology extra
expect_rc 2
printf '[Topology]\nNICs=upstream:15b3:*\n' >"$T/bad.conf"
hp --config "$T/bad.conf" topology
expect_rc 2
expect_grep err "$T/bad.conf:2: NICs=: 'upstream:15b3:\*': upstream: selects bridges"

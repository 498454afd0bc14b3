# A rule naming an interface that exists but is no bond (a slave NIC) fails at check time
# saying so; a rule naming an interface that does not exist fails saying that. The config
# itself is valid: only the host can tell.
newroot bond-lacp
useconf bond-notabond
hp config
expect_rc 0
hp -v check
expect_rc 1
expect_grep out '^FAIL +bond +ens2f0np0 .* ens2f0np0 is not a bond \(no bonding/ directory\)$'
expect_no_grep out 'bond\.slave'
newroot l40-amd
useconf bond-lacp
hp -v check
expect_rc 1
expect_grep out '^FAIL +bond +bond0 .* no interface bond0$'
expect_no_grep out 'bond\.lag'

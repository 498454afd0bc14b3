# active-backup with the backup slave's link down (3 link failures): by default every slave
# must be up, so the bond and that slave fail; a drop-in with MinSlavesUp=1 makes the bond
# pass and the down slave a warning that still names it and its failure count.
newroot bond-ab
useconf bond-ab
hp -v check
expect_rc 1
expect_grep out '^FAIL +bond +bond0 +active-backup, miimon > 0, every slave up, an active slave +1 of 2 slaves up, want 2 \(down: ens2f1np1 \(3 link failures\)\) \(active-backup, miimon 100, 1 of 2 slaves up, active ens2f0np0\)$'
expect_grep out '^FAIL +bond\.slave +bond0/ens2f1np1 +mii up +ens2f1np1: mii down, 3 link failures — no carrier \(mii down, backup, 3 link failures\)$'
expect_grep out '^PASS +bond\.slave +bond0/ens2f0np0 +mii up +mii up, active, 0 link failures$'
dropin bond-min1 50-bond.conf
hp -v check
expect_rc 0
expect_grep out '^PASS +bond +bond0 +active-backup, miimon > 0, at least 1 slave up, an active slave '
expect_grep out '^WARN +bond\.slave +bond0/ens2f1np1 .*mii down, 3 link failures — no carrier; bond0 keeps 1 of 2 up, MinSlavesUp=1'
# The active slave's link goes down too: no slave up, nothing elected.
echo down >"$R/sys/class/net/ens2f0np0/bonding_slave/mii_status"
: >"$R/sys/devices/virtual/net/bond0/bonding/active_slave"
hp -v check
expect_rc 1
expect_grep out '^FAIL +bond +bond0 .*0 of 2 slaves up, want 1 \(down: ens2f0np0, ens2f1np1 \(3 link failures\)\); no active slave: no traffic flows'
# miimon 0: link failures go unnoticed (fails unless Miimon=no)
newroot bond-ab
useconf bond-ab
dropin bond-min1 50-bond.conf
echo 0 >"$R/sys/devices/virtual/net/bond0/bonding/miimon"
hp -v check
expect_rc 1
expect_grep out '^FAIL +bond +bond0 .*miimon 0: a dead link is not noticed'
printf '[Bond:bond0]\nMiimon=no\n' >"$R/etc/hostprep/hostprep.conf.d/60-nomii.conf"
hp -v check
expect_rc 0
# A mode other than the rule's fails with both.
newroot bond-lacp
useconf bond-ab
hp -v check
expect_rc 1
expect_grep out '^FAIL +bond +bond0 +active-backup,.* mode 802\.3ad, want active-backup'

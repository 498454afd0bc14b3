# A slave listed in bonding/slaves whose netdev vanished mid-run: unknown for that slave
# (and the count cannot be trusted), never a crash, never a pass.
newroot bond-lacp
useconf bond-lacp
rm "$R/sys/class/net/ens2f1np1"
hp -v check
expect_rc 1
expect_grep out '^UNKNOWN +bond\.slave +bond0/ens2f1np1 .*ens2f1np1: vanished while being read \(No such file or directory\)'
expect_grep out '^FAIL +bond +bond0 .*1 of 2 slaves up, want 2'

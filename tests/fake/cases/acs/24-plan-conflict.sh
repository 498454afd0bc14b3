# Two rules force RR both ways on the same root ports: exit 2 naming both rules'
# file:line, nothing written.
newroot dgx8
useconf conflict
hp apply
expect_rc 2
expect_grep err 'hostprep\.conf:5([^0-9]|$)' "the conflict does not name the first rule (line 5)"
expect_grep err 'hostprep\.conf:(8|10)([^0-9]|$)' "the conflict does not name the second rule (line 8/10)"
expect_tree_same

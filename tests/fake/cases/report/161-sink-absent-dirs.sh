# Without node_exporter or NFD on the host (no directories), a run changes nothing
# outside run/hostprep: no directory is created for another tool.
newroot dgx8
useconf gpu-p2p
hp check
expect_rc 1
expect_tree_same
expect_no_grep err 'Prometheus|NFD' "a warning for sinks nobody asked for"

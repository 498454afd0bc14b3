# ib-gpu: one IB rail Polling beside a healthy RoCE LAG is NOT READY, with the operator's
# sentence; a Down port gets no rate complaint; rails count 7 of 8; the env file lists
# only ACTIVE ports, is written atomically (no temp file left) and equals `hostprep env`.
newroot ib-gpu
useconf rdma-ib-gpu
hp -v check # -v: the table cuts lines at 120 columns
expect_rc 1
expect_grep out 'FAIL +rdma\.port +mlx5_3/1 .*mlx5_3 port 1: DOWN/Polling — no cable or no peer at the switch \[sysfs\]'
expect_no_grep out 'mlx5_3 port 1.*(below|MinRate)' 'a Down port is judged by its rate'
expect_grep out 'FAIL +rdma\.ports +Port:rails .*7 of 8 selected ports active \(down: mlx5_3/1\)'
expect_grep out 'PASS +rdma\.port +mlx5_bond_0/1 .*netdev bond0'
E=$R/run/hostprep/rdma.env
[ -f "$E" ] || fail "no rdma.env"
expect_grep "$E" '^NCCL_IB_HCA==mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_4:1,mlx5_5:1,mlx5_6:1,mlx5_7:1,mlx5_bond_0:1$'
expect_no_grep "$E" 'mlx5_3'
expect_grep "$E" '^NCCL_IB_GID_INDEX=3$'
expect_grep "$E" '^NCCL_SOCKET_IFNAME==bond0$' # exact match: NCCL takes a bare name as a prefix
[ -z "$(find "$R/run/hostprep" -name '*.tmp*')" ] || fail "temp file left: $(ls "$R/run/hostprep")"
[ "$(stat -c %a "$E")" = 644 ] || fail "rdma.env mode $(stat -c %a "$E")"
cp "$E" "$T/env.file"
hp env
expect_rc 0
cmp -s "$T/out" "$T/env.file" || fail "hostprep env differs from the file: $(diff "$T/env.file" "$T/out")"
cp "$T/env.file" "$T/out"
RC=0
golden ib-gpu-rdma.env
# a second run replaces the file in place, still without temp files
hp -v check
[ "$(ls "$R/run/hostprep" | sort | tr '\n' ' ')" = "lock rdma.env report.json " ] || fail "run/hostprep: $(ls "$R/run/hostprep")"
# dry-run writes nothing
rm -f "$E"
hp -v apply --dry-run
[ ! -e "$E" ] || fail "apply --dry-run wrote rdma.env"

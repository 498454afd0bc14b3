# rdma.env (issue 17 items 13, 14): only ports that pass their rule; Env=no keeps the
# frontend RoCE LAG out of NCCL_IB_HCA; device and netdev names outside [A-Za-z0-9_.:-]
# are left out with a warning, never written, so `. rdma.env` runs nothing.
# systemd EnvironmentFile= is proven in the guest (tests/vm 30); docker --env-file takes
# each VAR=VAL line literally (no quotes removed, no expansion): the file has no quote and
# only [A-Za-z0-9_.:,=-] in values, so all three read the same values.

# rename_rdma OLD NEW: the device directory and its class link
rename_rdma() {
	local link=$R/sys/class/infiniband/$1 real
	real=$(readlink -f "$link")
	mv "$real" "$(dirname "$real")/$2"
	ln -s "$(dirname "$(readlink "$link")")/$2" "$R/sys/class/infiniband/$2"
	rm "$link"
}

newroot ib-gpu
useconf rdma-ib-gpu
rename_rdma mlx5_7 'mlx5_7`id>c1`$(id>c2)'
rename_rdma mlx5_6 "$(printf 'mlx5_6\377')"
sed -i 's/^Select=mlx5_\[0-7\]$/Select=mlx5_[0-7]*/' "$R/etc/hostprep/hostprep.conf"
printf 'Env=no\n' >>"$R/etc/hostprep/hostprep.conf" # [Port:lag] is the last section
hp check
E=$R/run/hostprep/rdma.env
[ -f "$E" ] || fail "no rdma.env"
expect_grep "$E" '^NCCL_IB_HCA==mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_4:1,mlx5_5:1$'
expect_no_grep "$E" 'mlx5_bond_0|bond0' 'Env=no rule in rdma.env'
expect_no_grep "$E" 'mlx5_3' 'a failing port in rdma.env'
expect_grep "$E" '^# 2 name\(s\) left out'
expect_grep err "rdma.env: RDMA device 'mlx5_6\\\\xff' left out"
expect_grep err "rdma.env: RDMA device 'mlx5_7\`id>c1\`\\$\\(id>c2\\)' left out"
# the values: no quote, nothing a shell, systemd or docker would read differently (a path
# is safe: HOSTPREP_P2P_ENV; Open MPI's MCA names are lower case after OMPI_MCA_)
grep -v '^#' "$E" | grep -Evq '^[A-Z][A-Za-z0-9_]*=[A-Za-z0-9_.:,=/-]*$' &&
	fail "unsafe line in rdma.env: $(grep -v '^#' "$E" | grep -Ev '^[A-Z][A-Za-z0-9_]*=[A-Za-z0-9_.:,=/-]*$')"
grep -q '\\' "$E" && fail "backslash in rdma.env (systemd continues a line at it)"
# sh sources it without running anything, and sees the exact values
mkdir -p "$T/sh"
got=$(cd "$T/sh" && sh -c '. "$1" && printf "%s|%s" "$NCCL_IB_HCA" "$UCX_NET_DEVICES"' sh "$E")
[ "$got" = "=mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_4:1,mlx5_5:1|mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_4:1,mlx5_5:1" ] ||
	fail "sh read '$got'"
[ -z "$(ls "$T/sh")" ] || fail "sourcing rdma.env ran a command: $(ls "$T/sh")"

# erdma in standard mode fails RoCE v2: not in rdma.env
newroot erdma-vm
useconf rdma-erdma
hp check
expect_grep "$R/run/hostprep/rdma.env" '^NCCL_IB_HCA==erdma_0:1$'
printf 'RoCEv2=yes\n' >>"$R/etc/hostprep/hostprep.conf"
hp check
expect_rc 1
expect_no_grep "$R/run/hostprep/rdma.env" '^[^#].*erdma_0' 'erdma_0 fails RoCE v2 but is in rdma.env'
expect_grep "$R/run/hostprep/rdma.env" '^# NCCL_IB_HCA and UCX_NET_DEVICES not set'

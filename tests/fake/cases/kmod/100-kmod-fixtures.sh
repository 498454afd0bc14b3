# The module fixtures are what kmod's own tools accept: modinfo -b reads the .ko files
# (parm, srcversion, version, depends), depmod -b recomputes the same modules.dep from
# the symbols, and /sys/module agrees with /proc/modules.
K=6.1.0-27-amd64
for fx in ofed-gpu ofed-mixed erdma-std erdma-inuse erdma-compat erdma-mainline erdma-absent; do
	P=$PRISTINE/$fx
	cp -a "$P/lib" "$T/lib-$fx"
	mkdir -p "$T/re-$fx"
	cp -a "$P/lib" "$T/re-$fx/"
	rm -f "$T/re-$fx/lib/modules/$K"/modules.{dep,dep.bin,symbols,alias}
	depmod -b "$T/re-$fx" "$K" 2>/dev/null || fail "$fx: depmod -b fails"
	cmp -s "$P/lib/modules/$K/modules.dep" "$T/re-$fx/lib/modules/$K/modules.dep" ||
		fail "$fx: depmod -b computes another modules.dep"
	while read -r name _ _ _ state _; do
		[ -f "$P/sys/module/$name/initstate" ] || fail "$fx: $name in /proc/modules without /sys/module/$name/initstate"
		[ "$(cat "$P/sys/module/$name/initstate")" = "$(echo "$state" | sed 's/Live/live/')" ] ||
			fail "$fx: $name initstate differs from /proc/modules"
		v=$(modinfo -b "$P" -k "$K" -F srcversion "$name" 2>/dev/null)
		[ -n "$v" ] || fail "$fx: modinfo -b finds no $name"
	done <"$P/proc/modules"
done
P=$PRISTINE/erdma-std
[ "$(modinfo -b "$P" -k "$K" -F parm erdma)" = "compat_mode:compat mode support (bool)" ] ||
	fail "erdma-std: modinfo -F parm erdma is $(modinfo -b "$P" -k "$K" -F parm erdma)"
[ "$(modinfo -b "$P" -k "$K" -F depends erdma)" = "ib_core,ib_uverbs" ] || fail "erdma depends"
[ -z "$(modinfo -b "$PRISTINE/erdma-mainline" -k "$K" -F parm erdma)" ] || fail "mainline erdma has parameters"
grep -q '^updates/erdma.ko: kernel/drivers/infiniband/core/ib_uverbs.ko kernel/drivers/infiniband/core/ib_core.ko$' \
	"$P/lib/modules/$K/modules.dep" || fail "erdma-std: modules.dep line for erdma"
P=$PRISTINE/ofed-gpu
[ "$(modinfo -b "$P" -k "$K" -F depends mlx5_core)" = mlx_compat ] || fail "OFED mlx5_core does not depend on mlx_compat"
[ "$(modinfo -b "$P" -k "$K" -n mlx5_core)" = "$P/lib/modules/$K/updates/dkms/drivers/net/ethernet/mellanox/mlx5/core/mlx5_core.ko" ] ||
	fail "modprobe would not load the OFED mlx5_core: $(modinfo -b "$P" -k "$K" -n mlx5_core)"
[ "$(cat "$P/sys/module/mlx5_core/version")" = 24.10-1.1.4 ] || fail "mlx5_core version"
[ "$(readlink "$PRISTINE/erdma-inuse/proc/4242/fd/3")" = /dev/infiniband/uverbs0 ] || fail "in-use fd link"

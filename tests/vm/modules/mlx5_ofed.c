// SPDX-License-Identifier: GPL-2.0-only
/*
 * An OFED-built module as MLNX_OFED installs it (updates/dkms/, a version
 * field, depends on mlx_compat through a symbol): loading it by name must
 * pull mlx_compat in first, as modprobe does.
 */
#include <linux/module.h>

int mlx_compat_backport(void);

static int __init mlx5_ofed_init(void)
{
	return mlx_compat_backport();
}

static void __exit mlx5_ofed_exit(void)
{
}

module_init(mlx5_ofed_init);
module_exit(mlx5_ofed_exit);
MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("hostprep VM test double of an OFED module depending on mlx_compat");
MODULE_VERSION("24.10-1.1.4");

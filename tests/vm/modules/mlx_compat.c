// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test double of MLNX_OFED's mlx_compat: the backport layer every OFED module
 * depends on (an inbox module never does). Exports one symbol.
 */
#include <linux/module.h>

int mlx_compat_backport(void)
{
	return 0;
}
EXPORT_SYMBOL_GPL(mlx_compat_backport);

static int __init mlx_compat_init(void)
{
	return 0;
}

static void __exit mlx_compat_exit(void)
{
}

module_init(mlx_compat_init);
module_exit(mlx_compat_exit);
MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("hostprep VM test double of OFED's mlx_compat");
MODULE_VERSION("24.10-1.1.4");

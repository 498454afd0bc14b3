// SPDX-License-Identifier: GPL-2.0-only
/*
 * Holds erdma: using one of its exported symbols makes the kernel record the
 * dependency, so erdma has refcnt 1 and holders/erdma_holder while this is
 * loaded, and cannot be unloaded (EWOULDBLOCK / "in use") until it is gone.
 */
#include <linux/module.h>

int erdma_test_hold(void);

static int __init erdma_holder_init(void)
{
	return erdma_test_hold();
}

static void __exit erdma_holder_exit(void)
{
}

module_init(erdma_holder_init);
module_exit(erdma_holder_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("hostprep VM test: a user of erdma");

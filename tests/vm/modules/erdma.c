// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test double of Alibaba's erdma driver: no hardware, no RDMA device, only
 * what hostprep looks at. variant.h (written per build by tests/vm/build.sh)
 * decides which erdma this is:
 *   ERDMA_COMPAT_PARAM  Alibaba's out-of-tree driver: compat_mode (bool, 0444)
 *   (undefined)         mainline-like: no parameters at all, so a
 *                       "modprobe erdma compat_mode=Y" loads and ignores it
 *   ERDMA_VERSION       the MODULE_VERSION string; a different string is a
 *                       rebuilt driver with a different srcversion (the
 *                       kernel hashes this directory's sources, variant.h too)
 */
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "variant.h"

#ifdef ERDMA_COMPAT_PARAM
static bool compat_mode;
module_param(compat_mode, bool, 0444);
MODULE_PARM_DESC(compat_mode, "register as an IB CA with RoCE-like GIDs (default N)");
#define ERDMA_MODE (compat_mode ? "compat" : "standard")
#else
#define ERDMA_MODE "mainline"
#endif

/*
 * erdma_holder calls this: the kernel then counts erdma as used by it
 * (refcnt 1, holders/erdma_holder), as an RDMA consumer would.
 */
int erdma_test_hold(void)
{
	return 0;
}
EXPORT_SYMBOL_GPL(erdma_test_hold);

static int __init erdma_init(void)
{
	/* scenarios count these lines to tell a reload from no reload */
	pr_info("vmtest erdma %s: loaded in %s mode\n", ERDMA_VARIANT, ERDMA_MODE);
	return 0;
}

static void __exit erdma_exit(void)
{
	pr_info("vmtest erdma %s: unloaded\n", ERDMA_VARIANT);
}

module_init(erdma_init);
module_exit(erdma_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("hostprep VM test double of the Elastic RDMA driver (" ERDMA_VARIANT ")");
#ifdef ERDMA_VERSION
MODULE_VERSION(ERDMA_VERSION);
#endif

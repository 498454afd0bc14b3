// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel command line (src/core/cmdline.c) and the boot-time ACS parameters
 * (src/acs/acs-cmdline.c kacs_*): the input is a whole /proc/cmdline. Its pci=
 * config_acs= and disable_acs_redir= values, and the input itself as such a value, are
 * evaluated for every device of a small tree (root port, switch, GPU functions, a VMD
 * domain) the way the kernel walks them, in both parses (before and after 9cf8a952d57b).
 * module_blacklist= goes through the module parser's check as well. The input is also a
 * grub.cfg linux line (src/acs/acs-grub-line.c): the kernel line GRUB builds from it holds
 * no NUL, and the line judged against a fixed argument (and itself as the argument) has a
 * state, with a winner exactly when hostprep's value is not the last.
 */
#include "acs/acs-cmdline.h"
#include "acs/acs-grub.h"
#include "core/cmdline.h"
#include "fuzz.h"
#include "kmod/kmod-parse.h"

/* addr is filled in at start, as the inventory writes it. */
#define DEV(dom_, bus_, dev_, fn_, ven_, did_, cls_, parent_) \
	{                                                     \
		.id = { .domain = dom_,                       \
			.bus = bus_,                          \
			.dev = dev_,                          \
			.func = fn_,                          \
			.vendor = ven_,                       \
			.device = did_,                       \
			.class_code = cls_ },                 \
		.parent = parent_, .pcie_type = -1            \
	}

static struct pci_dev_info devs[] = {
	DEV(0000, 0x00, 0x01, 0, 0x8086, 0x347a, 0x060400, -1),
	DEV(0000, 0x01, 0x00, 0, 0x10b5, 0xc010, 0x060400, 0),
	DEV(0000, 0x02, 0x08, 0, 0x10b5, 0xc010, 0x060400, 1),
	DEV(0000, 0x03, 0x00, 0, 0x10de, 0x2330, 0x030200, 2),
	DEV(0000, 0x03, 0x00, 1, 0x15b3, 0x101d, 0x020000, 2),
	DEV(0x10000, 0xe0, 0x00, 0, 0x8086, 0x0b60, 0x010802, -1),
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	for (size_t i = 0; i < ARRAY_SIZE(devs); i++)
		snprintf(devs[i].addr, sizeof(devs[i].addr), "%04x:%02x:%02x.%u", devs[i].id.domain,
			 devs[i].id.bus, devs[i].id.dev, devs[i].id.func);
	return 0;
}

static void check_eval(const struct kacs_eval *ev)
{
	fuzz_assert(ev->state <= KACS_UNDECIDED);
	fuzz_assert(memchr(ev->dev, '\0', sizeof(ev->dev)));
	fuzz_assert(memchr(ev->why, '\0', sizeof(ev->why)));
	if (ev->state == KACS_MATCHED)
		fuzz_assert((ev->flags & ~ev->mask) == 0);
}

static void evaluate(const char *param, bool config)
{
	const struct pci_inventory inv = { .devs = devs, .n = ARRAY_SIZE(devs) };

	for (size_t i = 0; i < ARRAY_SIZE(devs); i++) {
		const char *end = NULL;
		struct kacs_eval ev;

		for (unsigned buggy = 0; buggy < 2; buggy++)
			for (unsigned skip = 0; skip < 3; skip++) {
				kacs_evaluate(param, config, buggy, skip, &inv, &devs[i], &ev);
				check_eval(&ev);
			}
		if (kacs_dev_str_match(&inv, &devs[i], param, &end) != -EINVAL)
			fuzz_assert(end && end >= param && end <= param + strlen(param));
	}
}

static void judge(const char *line, const char *arg)
{
	struct grub_judgement j;

	if (grub_line_judge(line, 2, arg, &j) < 0)
		return;
	fuzz_assert(j.state <= GRUB_LINE_SHADOWED);
	fuzz_assert(j.state != GRUB_LINE_CARRIES || !j.winner);
	fuzz_assert(j.state != GRUB_LINE_SHADOWED || j.winner);
	grub_judgement_done(&j);
}

static void grub_line(const char *s)
{
	_cleanup_(freep) char *line = NULL;

	if (grub_kernel_cmdline(s, 1, &line) < 0)
		return;
	fuzz_assert(strlen(line) <= 5 * strlen(s) + 2);
	judge(s, "pci=config_acs=\"x0x00xx@0000:00:01.0;x0x00xx@0000:00:01.0/00.0/08.0\"");
	judge(s, s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	_cleanup_(freep) char *s = fuzz_strndup(data, size);
	_cleanup_(cmdline_done) struct cmdline cmd = {};
	_cleanup_(kacs_params_done) struct kacs_params k = {};
	const struct cmdline_param *p;

	if (cmdline_parse(s, &cmd) < 0)
		return 0;
	for (size_t i = 0; i < cmd.n; i++)
		fuzz_assert(cmd.params[i].key);
	p = cmdline_find_last(&cmd, "module_blacklist");
	if (p && p->value)
		(void)kmod_cmdline_blacklisted(p->value, "nouveau");
	if (kacs_params_get(&cmd, &k) == 0) {
		if (k.config_acs)
			evaluate(k.config_acs, true);
		if (k.disable_acs_redir)
			evaluate(k.disable_acs_redir, false);
	}
	evaluate(s, true);
	grub_line(s);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plan_build() on an in-memory topology, and what is derived from a plan:
 * acs_verify(), acs_cmdline_format() and acs_cmdline_verify().
 *
 *   0000:00:01.0  root port        ACS@0x2a0 cap 0x005f ctrl 0x001d
 *   └ 0000:01:00.0  switch upstream (PLX 10b5:8796), no ACS
 *     ├ 0000:02:08.0  downstream   ACS@0xf24 cap 0x007f ctrl 0x001d
 *     │ └ 0000:03:00.0  GPU          class 0x030200
 *     └ 0000:02:10.0  downstream   ACS@0xf24 cap 0x007f ctrl 0x001d
 *       └ 0000:04:00.0  NIC          class 0x020700
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "acs/acs-verify.h"
#include "acs/isolation.h"
#include "acs/plan.h"

enum { RP, USP, DSP_GPU, DSP_NIC, GPU, NIC, N_DEVS };

#define PCI_EXP_TYPE_ENDPOINT	0
#define PCI_EXP_TYPE_ROOT_PORT	4
#define PCI_EXP_TYPE_UPSTREAM	5
#define PCI_EXP_TYPE_DOWNSTREAM 6

static void dev_init(struct pci_dev_info *d, uint8_t bus, uint8_t dev, int parent, int type,
		     uint16_t vendor, uint16_t device, uint32_t class_code)
{
	*d = (struct pci_dev_info){
		.id = { .domain = 0,
			.bus = bus,
			.dev = dev,
			.func = 0,
			.vendor = vendor,
			.device = device,
			.class_code = class_code },
		.parent = parent,
		.pcie_type = type,
		.cfg = PCI_CFG_FULL,
	};
	snprintf(d->addr, sizeof(d->addr), "0000:%02x:%02x.0", bus, dev);
}

static void dev_acs(struct pci_dev_info *d, uint16_t off, uint16_t cap, uint16_t ctrl)
{
	d->has_acs = true;
	d->acs_off = off;
	d->acs_cap = cap;
	d->acs_ctrl = ctrl;
}

/* The topology above, sorted by address string as pcib_scan() leaves it. */
static void topo_init(struct pci_dev_info devs[static N_DEVS], struct pci_inventory *inv)
{
	dev_init(&devs[RP], 0x00, 0x01, -1, PCI_EXP_TYPE_ROOT_PORT, 0x1022, 0x14ab, 0x060400);
	dev_acs(&devs[RP], 0x2a0, 0x005f, 0x001d);
	dev_init(&devs[USP], 0x01, 0x00, RP, PCI_EXP_TYPE_UPSTREAM, 0x10b5, 0x8796, 0x060400);
	dev_init(&devs[DSP_GPU], 0x02, 0x08, USP, PCI_EXP_TYPE_DOWNSTREAM, 0x10b5, 0x8796,
		 0x060400);
	dev_acs(&devs[DSP_GPU], 0xf24, 0x007f, 0x001d);
	dev_init(&devs[DSP_NIC], 0x02, 0x10, USP, PCI_EXP_TYPE_DOWNSTREAM, 0x10b5, 0x8796,
		 0x060400);
	dev_acs(&devs[DSP_NIC], 0xf24, 0x007f, 0x001d);
	dev_init(&devs[GPU], 0x03, 0x00, DSP_GPU, PCI_EXP_TYPE_ENDPOINT, 0x10de, 0x2330, 0x030200);
	dev_init(&devs[NIC], 0x04, 0x00, DSP_NIC, PCI_EXP_TYPE_ENDPOINT, 0x15b3, 0x1021, 0x020700);
	*inv = (struct pci_inventory){ .devs = devs, .n = N_DEVS };
	for (size_t i = 1; i < inv->n; i++)
		assert_true(strcmp(devs[i - 1].addr, devs[i].addr) < 0);
}

/* Up to 4 selectors per list; NULL-terminated string lists. */
struct rule_spec {
	const char *name;
	const char *mask;
	bool disabled;
	const char *select[4];
	const char *exclude[4];
	bool vendor;	 /* from the vendor directory: not declared by an admin */
	bool allow_none; /* AllowNone= in effect (the vendor's selection, or =yes) */
	bool allow_vfio; /* AllowVFIO=yes */
};

struct fixture {
	struct pci_dev_info devs[N_DEVS];
	struct pci_inventory inv;
	struct selector_entry sels[8][8];
	struct acs_rule rules[8];
	struct acs_config ac;
	struct config c;
	struct plan p;
	struct results rs;
	struct cmdline cmd;
};

static size_t fill_selectors(const char *const *texts, struct selector_entry *out, unsigned line)
{
	size_t n = 0;

	for (; n < 4 && texts[n]; n++) {
		const char *reason = NULL;

		out[n] = (struct selector_entry){ .text = (char *)texts[n],
						  .at = { .file = "test.conf", .line = line } };
		assert_int_equal(selector_parse(texts[n], &out[n].sel, &reason), 0);
	}
	return n;
}

static void config_set(struct fixture *f, const struct rule_spec *specs, size_t n)
{
	assert_true(n <= ARRAY_SIZE(f->rules));
	for (size_t i = 0; i < n; i++) {
		struct acs_rule *r = &f->rules[i];

		*r = (struct acs_rule){
			.name = (char *)specs[i].name,
			.at = { .file = "test.conf", .line = (unsigned)(10 * i + 1) },
			.enabled = !specs[i].disabled,
			.declared = !specs[i].vendor,
			.allow_none = specs[i].allow_none,
			.allow_vfio = specs[i].allow_vfio,
			.select = f->sels[i],
			.exclude = f->sels[i] + 4,
		};
		assert_int_equal(
			acs_mask_parse(specs[i].mask ? specs[i].mask : ACS_MASK_DEFAULT, &r->mask),
			0);
		r->n_select = fill_selectors(specs[i].select, f->sels[i], r->at.line + 1);
		r->n_exclude = fill_selectors(specs[i].exclude, f->sels[i] + 4, r->at.line + 2);
	}
	f->ac = (struct acs_config){ .rules = f->rules, .n_rules = n };
	f->c = (struct config){};
	config_part_set(&f->c, &acs_config_part, &f->ac);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	topo_init(f->devs, &f->inv);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	plan_done(&f->p);
	results_done(&f->rs);
	cmdline_done(&f->cmd);
	free(f);
	return 0;
}

static void build_ok(struct fixture *f, const struct rule_spec *specs, size_t n)
{
	config_set(f, specs, n);
	assert_int_equal(plan_build(&f->c, &f->inv, &f->p), 0);
}

static void assert_target(const struct plan *p, size_t i, const char *addr, const char *mask,
			  const char *rules)
{
	char m[ACS_MASK_BITS + 1];

	assert_true(i < p->n_targets);
	assert_string_equal(p->targets[i].addr, addr);
	acs_mask_format(&p->targets[i].mask, m);
	assert_string_equal(m, mask);
	assert_string_equal(p->targets[i].rules, rules);
}

static void assert_action(const struct plan *p, size_t i, const char *addr, uint16_t off,
			  uint16_t cap, uint16_t old, uint16_t new, const char *rules)
{
	const struct acs_action *a;

	assert_true(i < p->n_actions);
	a = &p->actions[i];
	assert_string_equal(a->addr, addr);
	assert_int_equal(a->off, off);
	assert_int_equal(a->cap, cap);
	assert_int_equal(a->old, old);
	assert_int_equal(a->new, new);
	assert_non_null(a->target);
	assert_string_equal(a->target->addr, addr);
	assert_string_equal(a->target->rules, rules);
}

/* ---- plan_candidates: what the lazy scan must read before plan_build ---- */

static void test_candidates_upstream_and_explicit(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = {
		{ .name = "gpu-paths", .select = { "upstream:class:0302" } },
		{ .name = "nic-port", .select = { "0000:02:10.0" } },
		{ .name = "off", .disabled = true, .select = { "15b3:*" } },
	};
	bool want[N_DEVS] = {};

	config_set(f, r, ARRAY_SIZE(r));
	/* Every port above the GPU (whether it has ACS is what the chains tell), the named
	 * port; not the GPU itself, not the disabled rule's NIC. */
	assert_int_equal(plan_candidates(&f->c, &f->inv, want), 4);
	assert_true(want[RP] && want[USP] && want[DSP_GPU] && want[DSP_NIC]);
	assert_false(want[GPU] || want[NIC]);
}

/* A copy of the inventory as the lazy scan leaves it: chains read only for the candidates. */
static void lazy_copy(const struct fixture *f, const bool *want, struct pci_dev_info *out)
{
	for (size_t i = 0; i < N_DEVS; i++) {
		out[i] = f->devs[i];
		if (want[i])
			continue;
		out[i].cfg = PCI_CFG_FULL;
		out[i].pcie_type = -1;
		out[i].has_acs = false;
		out[i].acs_off = out[i].acs_cap = out[i].acs_ctrl = 0;
	}
}

static void assert_same_plan(const struct plan *a, const struct plan *b)
{
	assert_int_equal(a->n_targets, b->n_targets);
	assert_int_equal(a->n_actions, b->n_actions);
	assert_int_equal(a->n_idle, b->n_idle);
	for (size_t i = 0; i < a->n_idle; i++) {
		assert_ptr_equal(a->idle[i].rule, b->idle[i].rule);
		assert_int_equal(a->idle[i].functions, b->idle[i].functions);
	}
	for (size_t i = 0; i < a->n_targets; i++) {
		assert_string_equal(a->targets[i].addr, b->targets[i].addr);
		assert_int_equal(a->targets[i].state, b->targets[i].state);
		assert_int_equal(a->targets[i].ctrl, b->targets[i].ctrl);
	}
	for (size_t i = 0; i < a->n_actions; i++) {
		assert_string_equal(a->actions[i].addr, b->actions[i].addr);
		assert_int_equal(a->actions[i].new, b->actions[i].new);
	}
}

/* Reading the chains only for the candidates yields the plan a full read yields. */
static void test_candidates_suffice_for_plan(void **state)
{
	static const struct rule_spec specs[][2] = {
		{ { .name = "a", .select = { "upstream:class:0302" } } },
		{ { .name = "a",
		    .select = { "upstream:10de:*", "upstream:15b3:*" },
		    .exclude = { "0000:00:01.0" } } },
		{ { .name = "a", .select = { "class:0604" }, .exclude = { "upstream:15b3:*" } } },
		{ { .name = "a", .select = { "10b5:8796" } },
		  { .name = "b", .mask = "1xxxxxx", .select = { "upstream:class:02" } } },
		{ { .name = "a", .select = { "0000:01:00.0", "0000:04:00.0" } } },
	};
	struct fixture *f = *state;

	f->devs[DSP_NIC].cfg = PCI_CFG_LIMITED; /* an unreadable port on one path */
	f->devs[DSP_NIC].has_acs = false;
	for (size_t k = 0; k < ARRAY_SIZE(specs); k++) {
		struct pci_dev_info lazy[N_DEVS];
		struct pci_inventory inv = { .devs = lazy, .n = N_DEVS };
		bool want[N_DEVS] = {};
		struct plan full = {}, part = {};

		config_set(f, specs[k], specs[k][1].name ? 2 : 1);
		plan_candidates(&f->c, &f->inv, want);
		lazy_copy(f, want, lazy);
		assert_int_equal(plan_build(&f->c, &f->inv, &full), 0);
		assert_int_equal(plan_build(&f->c, &inv, &part), 0);
		assert_true(full.n_targets > 0);
		assert_same_plan(&full, &part);
		plan_done(&full);
		plan_done(&part);
	}
}

/* ---- plan_build ---- */

static void test_upstream_gpu_paths(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "gpu-paths",
					 .select = { "upstream:class:0302" } } };

	build_ok(f, r, 1);
	/* The DSP above the GPU and the root port; not the USP (no ACS), not the GPU. */
	assert_int_equal(f->p.n_targets, 2);
	assert_target(&f->p, 0, "0000:00:01.0", "x0x00xx", "gpu-paths");
	assert_target(&f->p, 1, "0000:02:08.0", "x0x00xx", "gpu-paths");
	assert_int_equal(f->p.n_actions, 2);
	assert_action(&f->p, 0, "0000:00:01.0", 0x2a0, 0x005f, 0x001d, 0x0011, "gpu-paths");
	assert_action(&f->p, 1, "0000:02:08.0", 0xf24, 0x007f, 0x001d, 0x0011, "gpu-paths");
	assert_ptr_equal(f->p.actions[0].target, &f->p.targets[0]);
	assert_ptr_equal(f->p.actions[1].target, &f->p.targets[1]);
}

static void test_upstream_by_vendor_all_endpoints(void **state)
{
	struct fixture *f = *state;
	/* 10b5:* matches the switch ports themselves: upstream of them is USP+RP / RP. */
	const struct rule_spec r[] = { { .name = "all",
					 .mask = "0000000",
					 .select = { "upstream:10de:*", "upstream:15b3:*" } } };

	build_ok(f, r, 1);
	assert_int_equal(f->p.n_targets, 3);
	assert_target(&f->p, 0, "0000:00:01.0", "0000000", "all");
	assert_target(&f->p, 1, "0000:02:08.0", "0000000", "all");
	assert_target(&f->p, 2, "0000:02:10.0", "0000000", "all");
	assert_int_equal(f->p.n_actions, 3);
	assert_action(&f->p, 0, "0000:00:01.0", 0x2a0, 0x005f, 0x001d, 0x0000, "all");
	assert_action(&f->p, 2, "0000:02:10.0", 0xf24, 0x007f, 0x001d, 0x0000, "all");
}

static void test_upstream_excludes_matching_port_itself(void **state)
{
	struct fixture *f = *state;
	/* The matched device has ACS itself: upstream: still names only what is above it. */
	const struct rule_spec r[] = { { .name = "above", .select = { "upstream:0000:02:08.0" } } };

	build_ok(f, r, 1);
	assert_int_equal(f->p.n_targets, 1);
	assert_target(&f->p, 0, "0000:00:01.0", "x0x00xx", "above");
	assert_int_equal(f->p.n_actions, 1);
}

static void test_exclude_by_address(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "gpu-paths",
					 .select = { "upstream:class:0302" },
					 .exclude = { "0000:00:01.0" } } };

	build_ok(f, r, 1);
	assert_int_equal(f->p.n_targets, 1);
	assert_target(&f->p, 0, "0000:02:08.0", "x0x00xx", "gpu-paths");
	assert_int_equal(f->p.n_actions, 1);
	assert_action(&f->p, 0, "0000:02:08.0", 0xf24, 0x007f, 0x001d, 0x0011, "gpu-paths");
}

static void test_exclude_upstream(void **state)
{
	struct fixture *f = *state;
	/* Everything above a GPU or NIC, except what is above the NIC. */
	const struct rule_spec r[] = { { .name = "r",
					 .select = { "upstream:class:03", "upstream:class:02" },
					 .exclude = { "upstream:class:0207" } } };

	build_ok(f, r, 1);
	assert_int_equal(f->p.n_targets, 1);
	assert_target(&f->p, 0, "0000:02:08.0", "x0x00xx", "r");
}

static void test_compatible_rules_merge(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = {
		{ .name = "gpus", .mask = "xxxx0xx", .select = { "upstream:class:0302" } },
		{ .name = "nics", .mask = "xxx0xxx", .select = { "upstream:class:0207" } },
	};

	build_ok(f, r, 2);
	assert_int_equal(f->p.n_targets, 3);
	assert_target(&f->p, 0, "0000:00:01.0", "xxx00xx", "gpus,nics");
	assert_target(&f->p, 1, "0000:02:08.0", "xxxx0xx", "gpus");
	assert_target(&f->p, 2, "0000:02:10.0", "xxx0xxx", "nics");
	assert_int_equal(f->p.n_actions, 3);
	assert_action(&f->p, 0, "0000:00:01.0", 0x2a0, 0x005f, 0x001d, 0x0011, "gpus,nics");
	assert_action(&f->p, 1, "0000:02:08.0", 0xf24, 0x007f, 0x001d, 0x0019, "gpus");
	assert_action(&f->p, 2, "0000:02:10.0", 0xf24, 0x007f, 0x001d, 0x0015, "nics");
}

static void test_conflicting_rules_einval(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = {
		{ .name = "gpus", .mask = "xxxx0xx", .select = { "upstream:class:0302" } },
		{ .name = "nics", .mask = "xxxx1xx", .select = { "upstream:class:0207" } },
	};

	config_set(f, r, 2);
	f->p = (struct plan){};
	assert_int_equal(plan_build(&f->c, &f->inv, &f->p), -EINVAL);
	assert_int_equal(f->p.n_targets, 0);
	assert_int_equal(f->p.n_actions, 0);
}

static void test_conflict_avoided_by_exclude(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = {
		{ .name = "gpus", .mask = "xxxx0xx", .select = { "upstream:class:0302" } },
		{ .name = "nics",
		  .mask = "xxxx1xx",
		  .select = { "upstream:class:0207" },
		  .exclude = { "0000:00:01.0" } },
	};

	build_ok(f, r, 2);
	assert_int_equal(f->p.n_targets, 3);
	assert_target(&f->p, 0, "0000:00:01.0", "xxxx0xx", "gpus");
	assert_target(&f->p, 2, "0000:02:10.0", "xxxx1xx", "nics");
	/* RR already on at 02:10.0 (0x001d): nothing to write there. */
	assert_int_equal(f->p.n_actions, 2);
	assert_action(&f->p, 0, "0000:00:01.0", 0x2a0, 0x005f, 0x001d, 0x0019, "gpus");
	assert_action(&f->p, 1, "0000:02:08.0", 0xf24, 0x007f, 0x001d, 0x0019, "gpus");
}

static void test_port_already_at_target(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "gpu-paths",
					 .select = { "upstream:class:0302" } } };

	f->devs[RP].acs_ctrl = 0x0011;
	build_ok(f, r, 1);
	assert_int_equal(f->p.n_targets, 2);
	assert_target(&f->p, 0, "0000:00:01.0", "x0x00xx", "gpu-paths");
	assert_int_equal(f->p.n_actions, 1);
	assert_action(&f->p, 0, "0000:02:08.0", 0xf24, 0x007f, 0x001d, 0x0011, "gpu-paths");
}

static void test_limited_config_port_selected_no_action(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "gpu-paths",
					 .select = { "upstream:class:0302" } } };

	/* Not root: the USP's (and the DSP's) extended config space is unreadable. */
	for (int i = USP; i <= DSP_NIC; i++) {
		f->devs[i].cfg = PCI_CFG_LIMITED;
		f->devs[i].has_acs = false;
		f->devs[i].acs_off = f->devs[i].acs_cap = f->devs[i].acs_ctrl = 0;
	}
	build_ok(f, r, 1);
	/* Unknown ports on the path count as candidates. */
	assert_int_equal(f->p.n_targets, 3);
	assert_target(&f->p, 0, "0000:00:01.0", "x0x00xx", "gpu-paths");
	assert_target(&f->p, 1, "0000:01:00.0", "x0x00xx", "gpu-paths");
	assert_target(&f->p, 2, "0000:02:08.0", "x0x00xx", "gpu-paths");
	assert_int_equal(f->p.n_actions, 1);
	assert_action(&f->p, 0, "0000:00:01.0", 0x2a0, 0x005f, 0x001d, 0x0011, "gpu-paths");
}

static void test_limited_with_stale_acs_no_action(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "gpu-paths",
					 .select = { "upstream:class:0302" } } };

	/* Even if has_acs were set, no write without full config access. */
	f->devs[DSP_GPU].cfg = PCI_CFG_LIMITED;
	build_ok(f, r, 1);
	assert_int_equal(f->p.n_targets, 2);
	assert_target(&f->p, 1, "0000:02:08.0", "x0x00xx", "gpu-paths");
	assert_int_equal(f->p.n_actions, 1);
	assert_string_equal(f->p.actions[0].addr, "0000:00:01.0");
}

static void test_explicit_port_without_acs(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "usp", .select = { "0000:01:00.0" } } };

	build_ok(f, r, 1);
	assert_int_equal(f->p.n_targets, 1);
	assert_target(&f->p, 0, "0000:01:00.0", "x0x00xx", "usp");
	assert_int_equal(f->p.n_actions, 0);
}

static void test_explicit_and_upstream_same_port(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = {
		{ .name = "r", .select = { "upstream:class:0302", "0000:02:08.0", "10b5:8796" } },
	};

	build_ok(f, r, 1);
	/* Each port once, the rule named once. */
	assert_int_equal(f->p.n_targets, 4);
	assert_target(&f->p, 0, "0000:00:01.0", "x0x00xx", "r");
	assert_target(&f->p, 1, "0000:01:00.0", "x0x00xx", "r");
	assert_target(&f->p, 2, "0000:02:08.0", "x0x00xx", "r");
	assert_target(&f->p, 3, "0000:02:10.0", "x0x00xx", "r");
	assert_int_equal(f->p.n_actions, 3);
}

static void test_disabled_rule_ignored(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = {
		{ .name = "off",
		  .disabled = true,
		  .mask = "xxxx1xx",
		  .select = { "upstream:class:03" } },
		{ .name = "nics", .select = { "upstream:class:0207" } },
	};

	build_ok(f, r, 2);
	/* The disabled rule would conflict at 00:01.0; it must not even be looked at. */
	assert_int_equal(f->p.n_targets, 2);
	assert_target(&f->p, 0, "0000:00:01.0", "x0x00xx", "nics");
	assert_target(&f->p, 1, "0000:02:10.0", "x0x00xx", "nics");
	assert_int_equal(f->p.n_actions, 2);
}

static void test_no_match_empty_plan(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "none", .select = { "upstream:class:0108" } } };
	char *arg = (char *)"untouched";

	build_ok(f, r, 1);
	assert_int_equal(f->p.n_targets, 0);
	assert_int_equal(f->p.n_actions, 0);
	assert_int_equal(acs_cmdline_format(&f->p, &f->inv, &arg), -ENODATA);
	assert_string_equal(arg, "untouched");
	/* No ports, no acs.cmdline result. */
	assert_int_equal(acs_cmdline_verify(&f->p, &f->inv, &f->cmd, "6.12.0", &f->rs), 0);
	assert_int_equal(f->rs.n, 0);
}

/* ---- acs_verify ---- */

static const struct result *result_at(const struct results *rs, size_t i, enum verdict v,
				      const char *check, const char *object)
{
	assert_true(i < rs->n);
	assert_string_equal(verdict_to_string(rs->items[i].verdict), verdict_to_string(v));
	assert_string_equal(rs->items[i].check, check);
	assert_string_equal(rs->items[i].object, object);
	return &rs->items[i];
}

static void test_verify_verdicts(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = {
		{ .name = "r",
		  .select = { "upstream:class:0302", "upstream:class:0207", "0000:01:00.0" } },
	};
	struct pci_dev_info fresh[N_DEVS];
	struct pci_inventory now;
	const struct result *x;

	build_ok(f, r, 1);
	assert_int_equal(f->p.n_targets, 4);

	/* After an apply: RP done, 02:08.0 reverted, 02:10.0 unreadable (not root). */
	topo_init(fresh, &now);
	fresh[RP].acs_ctrl = 0x0011;
	fresh[DSP_NIC].cfg = PCI_CFG_LIMITED;
	fresh[DSP_NIC].has_acs = false;
	assert_int_equal(acs_verify(&f->p, &now, false, "6.1.0-27-amd64", &f->rs), 0);
	assert_int_equal(f->rs.n, 4);

	x = result_at(&f->rs, 0, VERDICT_PASS, "acs", "0000:00:01.0");
	assert_string_equal(x->expected, "x0x00xx: RR,CR,EC off");
	assert_string_equal(x->actual, "0x0011 (SV,UF)");
	assert_null(x->remedy);

	x = result_at(&f->rs, 1, VERDICT_SKIP, "acs", "0000:01:00.0");
	assert_non_null(strstr(x->actual, "no ACS capability"));
	assert_null(x->remedy);

	x = result_at(&f->rs, 2, VERDICT_FAIL, "acs", "0000:02:08.0");
	assert_string_equal(x->actual, "0x001d (SV,RR,CR,UF)");
	assert_non_null(x->remedy);
	assert_non_null(strstr(x->remedy, "Apply=yes"));

	/* The text depends on who runs the test: it names what this process lacks. */
	x = result_at(&f->rs, 3, VERDICT_UNKNOWN, "acs", "0000:02:10.0");
	assert_string_equal(x->actual, pci_limited_text(pci_limited_cause())->actual);
	assert_string_equal(x->remedy, pci_limited_text(pci_limited_cause())->remedy);
}

static void test_limited_texts_name_the_capability(void **state)
{
	const struct pci_limited_text *t;

	t = pci_limited_text(PCI_LIMITED_NOT_ROOT);
	assert_non_null(strstr(t->actual, "needs root (CAP_SYS_ADMIN)"));
	assert_string_equal(t->remedy, "run as root");
	t = pci_limited_text(PCI_LIMITED_NO_SYS_ADMIN);
	assert_non_null(strstr(t->actual, "uid 0 but CAP_SYS_ADMIN is not in the effective "
					  "capability set (a container without SYS_ADMIN?)"));
	assert_null(strstr(t->remedy, "run as root"));
	assert_non_null(strstr(t->remedy, "CAP_SYS_ADMIN"));
	t = pci_limited_text(PCI_LIMITED_DEVICE);
	assert_non_null(strstr(t->actual, "only 64 bytes"));
	assert_null(strstr(t->remedy, "run as root"));
}

/* A port that reads all-ones, or vanished, is on the path, selected, never written. */
static void test_dead_and_gone_ports_are_candidates(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = {
		{ .name = "r", .select = { "upstream:class:0302", "upstream:class:0207" } },
	};

	f->devs[DSP_GPU].state = PCI_DEV_DEAD;
	f->devs[DSP_GPU].has_acs = false;
	f->devs[USP].state = PCI_DEV_GONE; /* a port without ACS, but unreadable now */
	f->devs[USP].err = -ENOENT;
	build_ok(f, r, 1);
	assert_int_equal(f->p.n_targets, 4);
	assert_int_equal(f->p.targets[0].state, ACS_PORT_ACS);
	assert_int_equal(f->p.targets[1].state, ACS_PORT_GONE);
	assert_int_equal(f->p.targets[1].err, -ENOENT);
	assert_int_equal(f->p.targets[2].state, ACS_PORT_DEAD);
	assert_int_equal(f->p.targets[3].state, ACS_PORT_ACS);
	assert_int_equal(f->p.n_state[ACS_PORT_ACS], 2);
	assert_int_equal(f->p.n_state[ACS_PORT_DEAD], 1);
	assert_int_equal(f->p.n_state[ACS_PORT_GONE], 1);
	assert_int_equal(plan_undecided(&f->p), 2);
	assert_int_equal(f->p.n_actions, 2);
	assert_string_equal(f->p.actions[0].addr, "0000:00:01.0");
	assert_string_equal(f->p.actions[1].addr, "0000:02:10.0");
}

static void test_verify_dead_and_gone_fail(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "r",
					 .select = { "0000:01:00.0", "0000:02:08.0" } } };
	const struct result *x;

	f->devs[USP].state = PCI_DEV_GONE;
	f->devs[USP].err = -ENOENT;
	f->devs[DSP_GPU].state = PCI_DEV_DEAD;
	f->devs[DSP_GPU].has_acs = false;
	build_ok(f, r, 1);
	assert_int_equal(acs_verify(&f->p, &f->inv, true, "6.1.0-27-amd64", &f->rs), 0);
	assert_int_equal(f->rs.n, 2);
	x = result_at(&f->rs, 0, VERDICT_FAIL, "acs", "0000:01:00.0");
	assert_non_null(strstr(x->actual, "device gone"));
	assert_non_null(strstr(x->actual, "No such file or directory"));
	assert_non_null(strstr(x->remedy, "lspci -vv -s 0000:01:00.0"));
	x = result_at(&f->rs, 1, VERDICT_FAIL, "acs", "0000:02:08.0");
	assert_non_null(strstr(x->actual, "not responding"));
	assert_null(strstr(x->actual, "no ACS"));
	assert_non_null(strstr(x->remedy, "dmesg"));
	assert_non_null(strstr(x->remedy, "lspci -vv -s 0000:02:08.0"));
}

static const struct plan_doc test_doc = {
	.version = "0.1.0",
	.host = "node1",
	.time = "2026-11-22T06:00:00Z",
	.apply = true,
	.limited_short = "needs CAP_SYS_ADMIN: not root",
	.limited_detail = "cannot tell: needs root",
};

static char *print_to_string(const struct plan *p, const struct plan_doc *doc, bool json)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	assert_non_null(f);
	assert_int_equal(json ? plan_print_json(p, doc, f) : plan_print(p, doc, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_plan_print_counts_by_state(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "r", .select = { "class:0604" } } };
	const char *want = "plan: 4 ports selected: 2 with ACS, 1 without ACS, 1 unreadable "
			   "(needs CAP_SYS_ADMIN: not root); 2 writes (1 port could not be read)\n";
	_cleanup_(freep) char *out = NULL;

	f->devs[DSP_NIC].cfg = PCI_CFG_LIMITED;
	build_ok(f, r, 1);
	out = print_to_string(&f->p, &test_doc, false);
	assert_true(strneq(out, want, strlen(want)));
	assert_non_null(strstr(out, "\n  skip 0000:01:00.0: no ACS capability"));
	assert_non_null(strstr(out, "\n  unknown 0000:02:10.0: cannot tell: needs root  rule r\n"));
	assert_non_null(strstr(out, "\n  write 0000:02:08.0 ACS@0xf24"));
}

static void test_plan_print_json_document(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "r", .select = { "class:0604" } } };
	_cleanup_(freep) char *out = NULL;

	f->devs[DSP_NIC].state = PCI_DEV_DEAD;
	f->devs[DSP_NIC].has_acs = false;
	build_ok(f, r, 1);
	out = print_to_string(&f->p, &test_doc, true);
	assert_non_null(strstr(out,
			       "\"schema\": 1,\n  \"version\": \"0.1.0\",\n  \"command\": "
			       "\"apply --dry-run\",\n  \"host\": \"node1\",\n  \"time\": "
			       "\"2026-11-22T06:00:00Z\",\n  \"apply\": true,\n  \"plan\": {"));
	assert_non_null(strstr(out, "\"selected\": 4,"));
	assert_non_null(strstr(out, "\"not_responding\": 1,"));
	assert_non_null(strstr(out, "\"writes\": 2"));
	assert_non_null(strstr(out, "\"state\": \"not_responding\""));
	assert_non_null(strstr(out, "\"error\": null"));
}


/* ---- plan_isolation(): vfio-pci below a relaxed port, the IOMMU groups that merge ---- */

/* Every function in a group of its own: RP 1, USP 2, DSP_GPU 3, DSP_NIC 4, GPU 5, NIC 6. */
static void fn_init(struct acs_fn_iommu fn[static N_DEVS])
{
	for (int i = 0; i < N_DEVS; i++)
		fn[i] = (struct acs_fn_iommu){ .group = i + 1 };
}

static const struct acs_target *target_of(const struct plan *p, const char *addr)
{
	for (size_t i = 0; i < p->n_targets; i++)
		if (streq(p->targets[i].addr, addr))
			return &p->targets[i];
	fail_msg("no target %s", addr);
	return NULL;
}

static void test_isolation_refuses_above_vfio(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "gpu", .select = { "upstream:class:0302" } } };
	struct acs_fn_iommu fn[N_DEVS];
	const struct acs_target *t;

	fn_init(fn);
	fn[GPU].vfio = true;
	build_ok(f, r, 1);
	assert_int_equal(f->p.n_actions, 2);
	assert_int_equal(plan_isolation(&f->p, &f->inv, fn), 0);
	/* both writes above the GPU refused, kept aside in target order, nothing to write */
	assert_int_equal(f->p.n_actions, 0);
	assert_int_equal(f->p.n_refused, 2);
	assert_string_equal(f->p.refused[0].addr, "0000:00:01.0");
	assert_string_equal(f->p.refused[1].addr, "0000:02:08.0");
	t = target_of(&f->p, "0000:00:01.0");
	assert_true(t->relaxes && t->refused);
	assert_string_equal(t->vfio, "0000:03:00.0");
	/* below the root port: the switch's three ports, the GPU and the NIC */
	assert_int_equal(t->n_merged, 5);
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(t->merged[i], (int)i + 2);
	/* one group below the GPU's port: nothing merges */
	t = target_of(&f->p, "0000:02:08.0");
	assert_true(t->refused);
	assert_int_equal(t->n_merged, 0);
	assert_null(t->merged);
	/* the switch upstream port has no ACS: not a port upstream: selects */
	assert_int_equal(f->p.n_targets, 2);
}

/* vfio-pci below a port that is not relaxed, or beside it, is no refusal. */
static void test_isolation_vfio_elsewhere(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "nic", .select = { "0000:02:10.0" } } };
	struct acs_fn_iommu fn[N_DEVS];

	fn_init(fn);
	fn[GPU].vfio = true; /* below 02:08.0, not below 02:10.0 */
	fn[DSP_NIC].vfio = true; /* the port itself is not below itself */
	build_ok(f, r, 1);
	assert_int_equal(plan_isolation(&f->p, &f->inv, fn), 0);
	assert_int_equal(f->p.n_actions, 1);
	assert_int_equal(f->p.n_refused, 0);
	assert_null(f->p.targets[0].vfio);
	/* nothing known (the module read nothing): nothing refused, nothing merged */
	plan_done(&f->p);
	build_ok(f, r, 1);
	assert_int_equal(plan_isolation(&f->p, &f->inv, NULL), 0);
	assert_int_equal(f->p.n_actions, 1);
	assert_false(f->p.targets[0].relaxes);
}

/* Only a mask that turns off SV, RR, CR or UF, where the port has it, relaxes isolation. */
static void test_isolation_which_bits_relax(void **state)
{
	static const struct {
		const char *mask;
		uint16_t cap;
		bool relaxes;
	} cases[] = {
		{ "x0x00xx", 0x007f, true },  { "xxxxxx0", 0x007f, true },  /* SV */
		{ "xxxxx0x", 0x007f, false }, /* TB */ { "xxxx0xx", 0x007f, true }, /* RR */
		{ "xxx0xxx", 0x007f, true },  /* CR */ { "xx0xxxx", 0x007f, true }, /* UF */
		{ "x0xxxxx", 0x007f, false }, /* EC */ { "0xxxxxx", 0x007f, false }, /* DT */
		{ "x0x00xx", 0x0020, false }, /* only EC implemented */
		{ "x0x00xx", 0x0008, true },  /* only CR implemented */
		{ "1x1111x", 0x007f, false }, /* forcing on never relaxes */
	};
	struct fixture *f = *state;
	struct acs_fn_iommu fn[N_DEVS];

	fn_init(fn);
	fn[GPU].vfio = true;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct rule_spec r[] = { { .name = "p", .mask = cases[i].mask,
						 .select = { "0000:02:08.0" } } };

		plan_done(&f->p);
		f->devs[DSP_GPU].acs_cap = cases[i].cap;
		build_ok(f, r, 1);
		assert_int_equal(plan_isolation(&f->p, &f->inv, fn), 0);
		if (f->p.targets[0].relaxes != cases[i].relaxes)
			fail_msg("mask %s cap 0x%04x: relaxes %d", cases[i].mask, cases[i].cap,
				 f->p.targets[0].relaxes);
		assert_int_equal(f->p.targets[0].refused, cases[i].relaxes);
		assert_int_equal(f->p.n_refused + f->p.n_actions, f->p.n_refused ? 1 : f->p.n_actions);
	}
}

/* AllowVFIO=yes lets it through; with two rules on one port, both must say so. */
static void test_isolation_allow_vfio(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec one[] = {
		{ .name = "vms", .allow_vfio = true, .select = { "upstream:class:0302" } },
	};
	const struct rule_spec two[] = {
		{ .name = "vms", .allow_vfio = true, .select = { "upstream:class:0302" } },
		{ .name = "all", .select = { "0000:02:08.0" } },
	};
	struct acs_fn_iommu fn[N_DEVS];

	fn_init(fn);
	fn[GPU].vfio = true;
	build_ok(f, one, 1);
	assert_int_equal(plan_isolation(&f->p, &f->inv, fn), 0);
	assert_int_equal(f->p.n_actions, 2);
	assert_int_equal(f->p.n_refused, 0);
	assert_string_equal(target_of(&f->p, "0000:02:08.0")->vfio, "0000:03:00.0");
	plan_done(&f->p);
	build_ok(f, two, 2);
	assert_int_equal(plan_isolation(&f->p, &f->inv, fn), 0);
	assert_int_equal(f->p.n_actions, 1);
	assert_string_equal(f->p.actions[0].addr, "0000:00:01.0");
	assert_int_equal(f->p.n_refused, 1);
	assert_string_equal(f->p.refused[0].addr, "0000:02:08.0");
}

/*
 * A function whose driver could not be read counts as vfio-pci (fail closed): the write
 * above it is refused, the function named apart from the vfio-pci ones, AllowVFIO=yes
 * lets it through; beside the port it refuses nothing.
 */
static void test_isolation_driver_unreadable(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec gpu[] = { { .name = "gpu", .select = { "0000:02:08.0" } } };
	const struct rule_spec nic[] = { { .name = "nic", .select = { "0000:02:10.0" } } };
	const struct rule_spec vms[] = { { .name = "vms", .allow_vfio = true,
					   .select = { "0000:02:08.0" } } };
	struct acs_fn_iommu fn[N_DEVS];
	const struct acs_target *t;
	char buf[160];

	fn_init(fn);
	fn[GPU].driver_unknown = true;
	build_ok(f, gpu, 1);
	assert_int_equal(plan_isolation(&f->p, &f->inv, fn), 0);
	t = target_of(&f->p, "0000:02:08.0");
	assert_true(t->relaxes && t->refused);
	assert_null(t->vfio);
	assert_string_equal(t->driver_unread, "0000:03:00.0");
	assert_int_equal(f->p.n_actions, 0);
	acs_vfio_format(t, buf, sizeof(buf));
	assert_string_equal(buf, "driver unreadable below (0000:03:00.0), counted as vfio-pci");
	/* with a vfio-pci function beside it under the same port: both named */
	plan_done(&f->p);
	fn[NIC].vfio = true;
	build_ok(f, (const struct rule_spec[]){ { .name = "all", .select = { "0000:00:01.0" } } }, 1);
	assert_int_equal(plan_isolation(&f->p, &f->inv, fn), 0);
	acs_vfio_format(target_of(&f->p, "0000:00:01.0"), buf, sizeof(buf));
	assert_string_equal(buf, "vfio-pci below (0000:04:00.0); driver unreadable below "
				 "(0000:03:00.0), counted as vfio-pci");
	fn[NIC].vfio = false;
	/* the NIC's port is beside the GPU: nothing refused there */
	plan_done(&f->p);
	build_ok(f, nic, 1);
	assert_int_equal(plan_isolation(&f->p, &f->inv, fn), 0);
	assert_false(f->p.targets[0].refused);
	assert_null(f->p.targets[0].driver_unread);
	assert_int_equal(f->p.n_actions, 1);
	/* AllowVFIO=yes: written, still named */
	plan_done(&f->p);
	build_ok(f, vms, 1);
	assert_int_equal(plan_isolation(&f->p, &f->inv, fn), 0);
	assert_false(f->p.targets[0].refused);
	assert_int_equal(f->p.n_actions, 1);
	assert_string_equal(f->p.targets[0].driver_unread, "0000:03:00.0");
}

/* Groups of several members: each group once; a function without a group counts for none. */
static void test_isolation_groups_several_members(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "rp", .select = { "0000:00:01.0" } } };
	struct acs_fn_iommu fn[N_DEVS];

	fn_init(fn);
	/* the switch and the GPU in group 9, the NIC in group 2: 2 and 9 */
	fn[USP].group = fn[DSP_GPU].group = fn[DSP_NIC].group = fn[GPU].group = 9;
	fn[NIC].group = 2;
	build_ok(f, r, 1);
	assert_int_equal(plan_isolation(&f->p, &f->inv, fn), 0);
	assert_int_equal(f->p.targets[0].n_merged, 2);
	assert_int_equal(f->p.targets[0].merged[0], 2);
	assert_int_equal(f->p.targets[0].merged[1], 9);
	/* the NIC without a group: one group left below, nothing merges */
	plan_done(&f->p);
	fn[NIC].group = -1;
	build_ok(f, r, 1);
	assert_int_equal(plan_isolation(&f->p, &f->inv, fn), 0);
	assert_int_equal(f->p.targets[0].n_merged, 0);
	/* the port's own group is not below it */
	plan_done(&f->p);
	fn[RP].group = 2;
	fn[NIC].group = 9;
	build_ok(f, r, 1);
	assert_int_equal(plan_isolation(&f->p, &f->inv, fn), 0);
	assert_int_equal(f->p.targets[0].n_merged, 0);
}

/* An endpoint with ACS (a multi-function device): its "below" is the device's other functions. */
static void test_isolation_multifunction_endpoint(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "fn0", .select = { "0000:03:00.0" } } };
	struct acs_fn_iommu fn[N_DEVS];

	fn_init(fn);
	dev_acs(&f->devs[GPU], 0x180, 0x005f, 0x001d);
	snprintf(f->devs[NIC].addr, sizeof(f->devs[NIC].addr), "0000:03:00.1");
	fn[NIC].vfio = true;
	fn[DSP_GPU].vfio = true; /* above the function, not beside it */
	build_ok(f, r, 1);
	assert_int_equal(plan_isolation(&f->p, &f->inv, fn), 0);
	assert_int_equal(f->p.n_refused, 1);
	assert_string_equal(f->p.targets[0].vfio, "0000:03:00.1");
	assert_int_equal(f->p.targets[0].n_merged, 0); /* one sibling, one group */
}

/* The results: the refused port fails naming vfio-pci and AllowVFIO=; merges; the IOMMU note. */
static void test_isolation_verify(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "gpu", .select = { "upstream:class:0302" } } };
	struct acs_fn_iommu fn[N_DEVS];
	struct pci_dev_info fresh[N_DEVS];
	struct pci_inventory now;
	const struct result *x;

	fn_init(fn);
	fn[GPU].vfio = true;
	fn[NIC].translated = true;
	build_ok(f, r, 1);
	assert_int_equal(plan_isolation(&f->p, &f->inv, fn), 0);
	topo_init(fresh, &now);
	fresh[DSP_GPU].acs_ctrl = 0x0011; /* relaxed by someone else */
	assert_int_equal(acs_verify(&f->p, &now, true, "6.1.0-27-amd64", &f->rs), 0);
	assert_int_equal(f->rs.n, 3);
	x = result_at(&f->rs, 0, VERDICT_FAIL, "acs", "0000:00:01.0");
	assert_string_equal(x->actual, "0x001d (SV,RR,CR,UF) not written: vfio-pci below "
				       "(0000:03:00.0); IOMMU groups 2, 3, 4, 5, 6 would become one");
	assert_non_null(strstr(x->remedy, "AllowVFIO=yes in [ACS:gpu]"));
	x = result_at(&f->rs, 1, VERDICT_FAIL, "acs", "0000:02:08.0");
	assert_string_equal(x->actual,
			    "0x0011 (SV,UF) relaxed already: vfio-pci below (0000:03:00.0)");
	/* the NIC's translated group is below the root port only */
	x = result_at(&f->rs, 2, VERDICT_WARN, "acs.iommu", "host");
	assert_non_null(strstr(x->actual, "below 1 selected port (first 0000:00:01.0): GPUDirect "
					  "RDMA peer-to-peer does not work there"));

	/* without vfio-pci: written, the root port's result names the groups that merged */
	results_done(&f->rs);
	f->rs = (struct results){};
	plan_done(&f->p);
	fn[GPU].vfio = false;
	fn[NIC].translated = false;
	build_ok(f, r, 1);
	assert_int_equal(plan_isolation(&f->p, &f->inv, fn), 0);
	fresh[RP].acs_ctrl = 0x0011;
	assert_int_equal(acs_verify(&f->p, &now, true, "6.1.0-27-amd64", &f->rs), 0);
	assert_int_equal(f->rs.n, 2); /* no acs.iommu without a translated group */
	x = result_at(&f->rs, 0, VERDICT_PASS, "acs", "0000:00:01.0");
	assert_string_equal(x->actual, "0x0011 (SV,UF); IOMMU groups 2, 3, 4, 5, 6 below become one");
	x = result_at(&f->rs, 1, VERDICT_PASS, "acs", "0000:02:08.0");
	assert_string_equal(x->actual, "0x0011 (SV,UF)");
}

/* apply --dry-run: refuse lines, the groups, the counts; JSON fields. */
static void test_isolation_plan_print(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "gpu", .select = { "upstream:class:0302" } } };
	struct acs_fn_iommu fn[N_DEVS];
	_cleanup_(freep) char *out = NULL, *json = NULL;

	fn_init(fn);
	fn[GPU].vfio = true;
	build_ok(f, r, 1);
	assert_int_equal(plan_isolation(&f->p, &f->inv, fn), 0);
	out = print_to_string(&f->p, &test_doc, false);
	assert_non_null(strstr(out, "; 0 writes, 2 refused\n"));
	assert_non_null(strstr(out, "\n  refuse 0000:00:01.0 ACS@0x2a0 ctrl(+0x6) 0x001d -> "
				    "0x0011  (SV,RR,CR,UF -> SV,UF)  rule gpu\n"
				    "    IOMMU groups 2, 3, 4, 5, 6 below become one\n"
				    "    refused: vfio-pci below (0000:03:00.0);"));
	assert_non_null(strstr(out, "\n  refuse 0000:02:08.0 ACS@0xf24"));
	json = print_to_string(&f->p, &test_doc, true);
	assert_non_null(strstr(json, "\"writes\": 0,\n      \"refused\": 2"));
	assert_non_null(strstr(json, "\"write\": false,\n        \"refused\": true,\n        "
				     "\"vfio\": [\n          \"0000:03:00.0\"\n        ],\n        "
				     "\"driver_unreadable\": [\n        ],\n        "
				     "\"iommu_groups_merged\": [\n          2,"));
}

static void test_verify_drift_remedy_when_apply_enabled(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "r", .select = { "0000:02:08.0" } } };

	build_ok(f, r, 1);
	assert_int_equal(acs_verify(&f->p, &f->inv, true, "6.1.0-27-amd64", &f->rs), 0);
	assert_int_equal(f->rs.n, 1);
	result_at(&f->rs, 0, VERDICT_FAIL, "acs", "0000:02:08.0");
	assert_true(strneq(f->rs.items[0].remedy, "hostprep apply", 14));
}

static void test_verify_device_gone(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "r", .select = { "upstream:class:0207" } } };
	struct pci_inventory now = { .devs = f->devs, .n = DSP_NIC }; /* 02:10.0 and below gone */

	build_ok(f, r, 1);
	assert_int_equal(f->p.n_targets, 2);
	f->devs[RP].acs_ctrl = 0x0011;
	assert_int_equal(acs_verify(&f->p, &now, false, "6.1.0-27-amd64", &f->rs), 0);
	assert_int_equal(f->rs.n, 2);
	result_at(&f->rs, 0, VERDICT_PASS, "acs", "0000:00:01.0");
	result_at(&f->rs, 1, VERDICT_FAIL, "acs", "0000:02:10.0");
	assert_non_null(strstr(f->rs.items[1].actual, "device gone"));
}

/* Issue 6 item 20: the vendor's rule alone, under Apply=no, is advice. */
static void test_verify_undeclared_is_advice(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = {
		{ .name = "gpu-paths", .select = { "upstream:class:0207" }, .vendor = true },
	};
	struct pci_inventory now = { .devs = f->devs, .n = DSP_NIC }; /* 02:10.0 and below gone */

	build_ok(f, r, 1);
	assert_false(f->p.targets[0].declared);
	assert_int_equal(acs_verify(&f->p, &now, false, "6.1.0-27-amd64", &f->rs), 0);
	result_at(&f->rs, 0, VERDICT_WARN, "acs", "0000:00:01.0"); /* 0x001d: a mismatch */
	result_at(&f->rs, 1, VERDICT_WARN, "acs", "0000:02:10.0"); /* gone */
	assert_non_null(strstr(f->rs.items[0].remedy, "no admin declared this vendor rule"));
	results_done(&f->rs);
	/* Apply=yes: the admin opted in, the same mismatch fails */
	assert_int_equal(acs_verify(&f->p, &now, true, "6.1.0-27-amd64", &f->rs), 0);
	result_at(&f->rs, 0, VERDICT_FAIL, "acs", "0000:00:01.0");
	result_at(&f->rs, 1, VERDICT_FAIL, "acs", "0000:02:10.0");
}

/* ---- acs_cmdline_format / acs_cmdline_verify ---- */

#define GPU_PATHS_ARG "pci=config_acs=\"x0x00xx@0000:00:01.0;x0x00xx@0000:00:01.0/00.0/08.0\""
/* The same as GRUB hands it to the kernel: its script parser removes the quotes. */
#define GPU_PATHS_BOOTED "pci=config_acs=x0x00xx@0000:00:01.0;x0x00xx@0000:00:01.0/00.0/08.0"

static void test_cmdline_format_paths(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "gpu-paths",
					 .select = { "upstream:class:0302" } } };
	_cleanup_(freep) char *arg = NULL;

	build_ok(f, r, 1);
	assert_int_equal(acs_cmdline_format(&f->p, &f->inv, &arg), 0);
	assert_string_equal(arg, GPU_PATHS_ARG);
}

static void test_cmdline_format_skips_ports_without_acs(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = {
		{ .name = "a",
		  .mask = "xxxx0xx",
		  .select = { "upstream:class:0207", "0000:01:00.0" } },
	};
	_cleanup_(freep) char *arg = NULL;

	build_ok(f, r, 1);
	assert_int_equal(f->p.n_targets, 3);
	assert_int_equal(acs_cmdline_format(&f->p, &f->inv, &arg), 0);
	assert_string_equal(
		arg, "pci=config_acs=\"xxxx0xx@0000:00:01.0;xxxx0xx@0000:00:01.0/00.0/10.0\"");
}

static void test_cmdline_format_only_usp_no_acs(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "usp", .select = { "0000:01:00.0" } } };
	char *arg = NULL;

	build_ok(f, r, 1);
	assert_int_equal(acs_cmdline_format(&f->p, &f->inv, &arg), -ENODATA);
	assert_null(arg);
}

static void verify_cmdline(struct fixture *f, const char *cmdline, const char *osrelease)
{
	const struct rule_spec r[] = { { .name = "gpu-paths",
					 .select = { "upstream:class:0302" } } };

	build_ok(f, r, 1);
	assert_int_equal(cmdline_parse(cmdline, &f->cmd), 0);
	assert_int_equal(acs_cmdline_verify(&f->p, &f->inv, &f->cmd, osrelease, &f->rs), 0);
	assert_int_equal(f->rs.n, 1);
}

static void test_cmdline_verify_pass_path_form(void **state)
{
	struct fixture *f = *state;

	verify_cmdline(f, "BOOT_IMAGE=/vmlinuz ro " GPU_PATHS_BOOTED " quiet", "6.12.30-amd64");
	result_at(&f->rs, 0, VERDICT_PASS, "acs.cmdline", "host");
	assert_string_equal(f->rs.items[0].actual,
			    "the kernel applies the policy to all 2 ports at boot");
	assert_null(f->rs.items[0].remedy);
}

static void test_cmdline_verify_pass_address_form(void **state)
{
	struct fixture *f = *state;

	/* Address form, domain-less, another pci= option before it. */
	verify_cmdline(f, "ro pci=noaer,config_acs=x0x00xx@0000:02:08.0;x0x00xx@00:01.0",
		       "6.12.30");
	result_at(&f->rs, 0, VERDICT_PASS, "acs.cmdline", "host");
}

static void test_cmdline_verify_warn_when_missing(void **state)
{
	struct fixture *f = *state;
	const struct result *x;

	verify_cmdline(f, "ro pci=config_acs=x0x00xx@0000:00:01.0", "6.15.0-1-amd64");
	x = result_at(&f->rs, 0, VERDICT_WARN, "acs.cmdline", "host");
	assert_string_equal(x->actual, "not applied for 1 of 2 ports: 0000:02:08.0: not named by "
				       "pci=config_acs=");
	assert_non_null(x->remedy);
	assert_non_null(strstr(x->remedy, GPU_PATHS_ARG));
}

static void test_cmdline_verify_wrong_mask_warns(void **state)
{
	struct fixture *f = *state;

	verify_cmdline(f, "ro pci=config_acs=xx000x0@0000:00:01.0;xx000x0@0000:00:01.0/00.0/08.0",
		       "6.12.30");
	result_at(&f->rs, 0, VERDICT_WARN, "acs.cmdline", "host");
	assert_true(strneq(f->rs.items[0].actual, "not applied for 2 of 2 ports", 28));
}

/* Before 6.11 pci=disable_acs_redir= (4.19) is exactly x0x00xx: it is checked and offered. */
static void test_cmdline_verify_skip_old_kernel(void **state)
{
	struct fixture *f = *state;

	verify_cmdline(f, "ro quiet", "6.1.0-18-amd64");
	result_at(&f->rs, 0, VERDICT_WARN, "acs.cmdline", "host");
	assert_string_equal(f->rs.items[0].expected, "pci=disable_acs_redir= at boot");
	assert_non_null(strstr(f->rs.items[0].remedy,
			       "pci=disable_acs_redir=\"0000:00:01.0;0000:00:01.0/00.0/08.0\""));
	assert_null(strstr(f->rs.items[0].remedy, "config_acs"));
}

static void test_cmdline_verify_6_11_is_new_enough(void **state)
{
	struct fixture *f = *state;

	verify_cmdline(f, "ro quiet", "6.11.0");
	result_at(&f->rs, 0, VERDICT_WARN, "acs.cmdline", "host");
}

/*
 * The kernel keeps one config_acs= string (pci_setup() assigns
 * config_acs_param = str + 11 for each occurrence): a later pci=config_acs=
 * replaces an earlier one. So an earlier word that carries the entries does
 * not count when a later one does not.
 */
static void test_cmdline_verify_later_config_acs_overrides(void **state)
{
	struct fixture *f = *state;

	verify_cmdline(f, "ro " GPU_PATHS_BOOTED " pci=config_acs=x0x00xx@0000:02:10.0", "6.12.30");
	result_at(&f->rs, 0, VERDICT_WARN, "acs.cmdline", "host");
}

/*
 * A rule matching nothing is reported (a typo or the wrong host), not silent: an admin's
 * fails with the bridges of the host in the remedy; one that may be idle is a skip.
 */
static void test_idle_rule_fails_unless_allowed(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = {
		{ .name = "gpu-paths", .select = { "upstream:class:0302" } },
		{ .name = "typo", .select = { "upstream:10ed:*" } },
		{ .name = "shared", .select = { "upstream:10ed:*" }, .allow_none = true },
	};

	build_ok(f, r, 3);
	assert_int_equal(f->p.n_idle, 2);
	assert_string_equal(f->p.idle[0].rule->name, "typo");
	assert_int_equal(f->p.idle[0].functions, 0);
	assert_string_equal(f->p.idle[1].rule->name, "shared");
	assert_int_equal(acs_verify(&f->p, &f->inv, false, "6.1.0", &f->rs), 0);
	assert_int_equal(f->rs.n, 4);
	result_at(&f->rs, 0, VERDICT_FAIL, "acs", "rule typo");
	assert_string_equal(f->rs.items[0].actual, "selects no port on this host");
	assert_non_null(strstr(f->rs.items[0].remedy,
			       "PCI bridges here: 1022:14ab x1, 10b5:8796 x3"));
	assert_non_null(strstr(f->rs.items[0].remedy, "AllowNone=yes"));
	result_at(&f->rs, 1, VERDICT_SKIP, "acs", "rule shared");
	assert_null(f->rs.items[1].remedy);
}

/* An idle rule is a fail even with Apply=no: it is the admin's, never advice. */
static void test_idle_rule_fails_with_apply(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "typo", .select = { "10ed:*" } } };

	build_ok(f, r, 1);
	assert_int_equal(acs_verify(&f->p, &f->inv, true, "6.1.0", &f->rs), 0);
	result_at(&f->rs, 0, VERDICT_FAIL, "acs", "rule typo");
}

/*
 * What makes a rule not idle: a port (a bridge, ACS or not: its own result says), or a
 * function with ACS or whose ACS cannot be read (limited, dead, gone). Endpoints without
 * ACS are picked (their skip says so) but leave the rule idle, counted.
 */
static void test_idle_counts_ports_not_endpoints(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec gpus[] = { { .name = "gpus", .select = { "class:03", "class:02" } } };
	const struct rule_spec usp[] = { { .name = "usp", .select = { "0000:01:00.0" } } };

	build_ok(f, gpus, 1);
	assert_int_equal(f->p.n_targets, 2);
	assert_int_equal(f->p.n_idle, 1);
	assert_int_equal(f->p.idle[0].functions, 2);
	assert_int_equal(acs_verify(&f->p, &f->inv, false, "6.1.0", &f->rs), 0);
	result_at(&f->rs, 0, VERDICT_FAIL, "acs", "rule gpus");
	assert_string_equal(f->rs.items[0].actual,
			    "selects no port on this host: 2 functions, none a port or with ACS");
	assert_non_null(strstr(f->rs.items[0].remedy, "upstream:SELECTOR"));
	plan_done(&f->p);

	/* a bridge without ACS is a port */
	build_ok(f, usp, 1);
	assert_int_equal(f->p.n_idle, 0);
	plan_done(&f->p);

	/* an endpoint with ACS, or whose ACS cannot be read, counts */
	dev_acs(&f->devs[GPU], 0x170, 0x005f, 0x001d);
	build_ok(f, gpus, 1);
	assert_int_equal(f->p.n_idle, 0);
	plan_done(&f->p);
	f->devs[GPU].has_acs = false;
	f->devs[GPU].cfg = PCI_CFG_LIMITED;
	build_ok(f, gpus, 1);
	assert_int_equal(f->p.n_idle, 0);
	plan_done(&f->p);
	f->devs[GPU].cfg = PCI_CFG_NO_EXT;
	build_ok(f, gpus, 1);
	assert_int_equal(f->p.n_idle, 0);
	plan_done(&f->p);
	f->devs[GPU].cfg = PCI_CFG_FULL;
	f->devs[GPU].state = PCI_DEV_DEAD;
	build_ok(f, gpus, 1);
	assert_int_equal(f->p.n_idle, 0);
	plan_done(&f->p);
	f->devs[GPU].state = PCI_DEV_GONE;
	build_ok(f, gpus, 1);
	assert_int_equal(f->p.n_idle, 0);
	plan_done(&f->p);
	/* a semi-transparent bridge (class 0609) is a port too */
	f->devs[GPU].state = PCI_DEV_OK;
	f->devs[GPU].id.class_code = 0x060940;
	build_ok(f, (const struct rule_spec[]){ { .name = "st", .select = { "class:0609" } } }, 1);
	assert_int_equal(f->p.n_idle, 0);
}

/* The dry-run says which idle rules fail, in text and JSON. */
static void test_plan_print_idle(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = {
		{ .name = "typo", .select = { "10ed:*" } },
		{ .name = "shared", .select = { "10ed:*" }, .allow_none = true },
	};
	struct plan_doc doc = { .version = "0", .host = "h", .time = "t" };
	_cleanup_(freep) char *text = NULL;
	size_t size = 0;
	FILE *mf;
	json_object *o;

	build_ok(f, r, 2);
	mf = open_memstream(&text, &size);
	assert_non_null(mf);
	assert_int_equal(plan_print(&f->p, &doc, mf), 0);
	fclose(mf);
	assert_non_null(strstr(text, "  rule typo selects no port on this host: fails (an admin's "
				     "Select=; AllowNone=yes allows none)\n"));
	assert_non_null(strstr(text, "  rule shared selects no port on this host\n"));
	o = plan_json(&f->p, &doc);
	assert_non_null(o);
	assert_string_equal(json_object_to_json_string_ext(
				    json_object_object_get(o, "idle_rules"), JSON_C_TO_STRING_PLAIN),
			    "[\"typo\",\"shared\"]");
	assert_string_equal(json_object_to_json_string_ext(
				    json_object_object_get(o, "idle_rules_failing"),
				    JSON_C_TO_STRING_PLAIN),
			    "[\"typo\"]");
	json_object_put(o);
}

/* Without root the ACS ports cannot be told apart: no argument rather than a wrong one. */
static void test_cmdline_format_refuses_unreadable(void **state)
{
	struct fixture *f = *state;
	const struct rule_spec r[] = { { .name = "gpu-paths",
					 .select = { "upstream:class:0302" } } };
	char *arg = NULL;

	f->devs[USP].cfg = PCI_CFG_LIMITED;
	build_ok(f, r, 1);
	assert_int_equal(acs_cmdline_format(&f->p, &f->inv, &arg), -EACCES);
	assert_null(arg);
	assert_int_equal(cmdline_parse("ro", &f->cmd), 0);
	assert_int_equal(acs_cmdline_verify(&f->p, &f->inv, &f->cmd, "6.12.0", &f->rs), 0);
	result_at(&f->rs, 0, VERDICT_UNKNOWN, "acs.cmdline", "host");
}

int main(void)
{
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_upstream_gpu_paths),
		T(test_upstream_by_vendor_all_endpoints),
		T(test_upstream_excludes_matching_port_itself),
		T(test_exclude_by_address),
		T(test_exclude_upstream),
		T(test_compatible_rules_merge),
		T(test_conflicting_rules_einval),
		T(test_conflict_avoided_by_exclude),
		T(test_port_already_at_target),
		T(test_limited_config_port_selected_no_action),
		T(test_limited_with_stale_acs_no_action),
		T(test_explicit_port_without_acs),
		T(test_explicit_and_upstream_same_port),
		T(test_disabled_rule_ignored),
		T(test_no_match_empty_plan),
		T(test_verify_verdicts),
		T(test_verify_drift_remedy_when_apply_enabled),
		T(test_verify_device_gone),
		T(test_verify_undeclared_is_advice),
		T(test_limited_texts_name_the_capability),
		T(test_dead_and_gone_ports_are_candidates),
		T(test_verify_dead_and_gone_fail),
		T(test_plan_print_counts_by_state),
		T(test_plan_print_json_document),
		T(test_isolation_refuses_above_vfio),
		T(test_isolation_vfio_elsewhere),
		T(test_isolation_which_bits_relax),
		T(test_isolation_allow_vfio),
		T(test_isolation_driver_unreadable),
		T(test_isolation_groups_several_members),
		T(test_isolation_multifunction_endpoint),
		T(test_isolation_verify),
		T(test_isolation_plan_print),
		T(test_cmdline_format_paths),
		T(test_cmdline_format_skips_ports_without_acs),
		T(test_cmdline_format_only_usp_no_acs),
		T(test_cmdline_verify_pass_path_form),
		T(test_cmdline_verify_pass_address_form),
		T(test_cmdline_verify_warn_when_missing),
		T(test_cmdline_verify_wrong_mask_warns),
		T(test_cmdline_verify_skip_old_kernel),
		T(test_cmdline_verify_6_11_is_new_enough),
		T(test_cmdline_verify_later_config_acs_overrides),
		T(test_idle_rule_fails_unless_allowed),
		T(test_idle_rule_fails_with_apply),
		T(test_idle_counts_ports_not_endpoints),
		T(test_plan_print_idle),
		T(test_cmdline_format_refuses_unreadable),
		T(test_candidates_upstream_and_explicit),
		T(test_candidates_suffice_for_plan),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}

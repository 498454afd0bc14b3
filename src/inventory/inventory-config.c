// SPDX-License-Identifier: GPL-2.0-or-later
/* [Inventory]: the config part (see inventory-config.h for the keys). */

#include "core/log.h"
#include "inventory/inventory-config.h"
#include "topo/topo.h"

static const char *const count_names[_INVENTORY_COUNT_MAX] = {
	[INVENTORY_GPUS] = "GPUs",	    [INVENTORY_NICS] = "NICs",
	[INVENTORY_RDMA] = "RDMADevices",   [INVENTORY_PORTS_IB] = "InfiniBand",
	[INVENTORY_PORTS_ETH] = "Ethernet",
};

static const char *const addr_keys[2] = {
	[TOPO_GPU] = "GPUAddresses",
	[TOPO_NIC] = "NICAddresses",
};

const char *inventory_count_name(enum inventory_count k)
{
	return k < _INVENTORY_COUNT_MAX ? count_names[k] : "?";
}

int inventory_parse_count(const char *s)
{
	long v = 0;

	if (!s || !*s || (s[0] == '0' && s[1]))
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		v = v * 10 + (*s - '0');
		if (v > INVENTORY_COUNT_MAX)
			return -EINVAL;
	}
	return (int)v;
}

int inventory_parse_ports_word(const char *w, enum inventory_count *ret_k, int *ret_n,
			       const char **reason)
{
	const char *colon = strchr(w, ':');
	size_t len = colon ? (size_t)(colon - w) : 0;
	int n;

	if (!colon) {
		*reason = "expected LAYER:N (InfiniBand:8, Ethernet:2)";
		return -EINVAL;
	}
	if (len == strlen("InfiniBand") && strncasecmp(w, "InfiniBand", len) == 0)
		*ret_k = INVENTORY_PORTS_IB;
	else if (len == strlen("Ethernet") && strncasecmp(w, "Ethernet", len) == 0)
		*ret_k = INVENTORY_PORTS_ETH;
	else {
		*reason = "the link layer is InfiniBand or Ethernet";
		return -EINVAL;
	}
	n = inventory_parse_count(colon + 1);
	if (n < 0) {
		*reason = "the count is a number from 0 to 4096";
		return -EINVAL;
	}
	*ret_n = n;
	return 0;
}

static bool is_section(const char *name)
{
	return streq(name, "Inventory");
}

static int part_section(void **state, const char *name, const struct origin *at, unsigned file_no)
{
	int r = CONFIG_SINGLETON_ENTER(state, struct inventory_config, "Inventory", at, file_no);

	if (r == 1) {
		struct inventory_config *ic = *state;

		for (int k = 0; k < _INVENTORY_COUNT_MAX; k++)
			ic->count[k] = -1;
	}
	return r < 0 ? r : 0;
}

static int assign_count(struct inventory_config *ic, enum inventory_count k, const char *value,
			const struct origin *at)
{
	int n;

	if (value[0] == '\0') {
		ic->count[k] = -1;
		ic->count_at[k] = (struct origin){};
		return 0;
	}
	n = inventory_parse_count(value);
	if (n < 0)
		return config_error_at(at, "%s=: invalid count '%s' (a number from 0 to %d)",
				       count_names[k], value, INVENTORY_COUNT_MAX);
	ic->count[k] = n;
	ic->count_at[k] = *at;
	return 0;
}

struct ports_words {
	struct inventory_config *ic;
	const struct origin *at;
	bool seen[_INVENTORY_COUNT_MAX];
};

static int ports_word(void *ctx, const char *word)
{
	struct ports_words *w = ctx;
	const char *reason = NULL;
	enum inventory_count k;
	int n;

	if (inventory_parse_ports_word(word, &k, &n, &reason) < 0)
		return config_error_at(w->at, "ActivePorts=: invalid entry '%s': %s", word, reason);
	if (w->seen[k])
		return config_error_at(w->at, "ActivePorts=: %s is given twice", count_names[k]);
	w->seen[k] = true;
	w->ic->count[k] = n;
	w->ic->count_at[k] = *w->at;
	return 0;
}

/* List: each word sets its link layer's count; an empty assignment unsets both. */
static int assign_ports(struct inventory_config *ic, const char *value, const struct origin *at)
{
	struct ports_words w = { .ic = ic, .at = at };

	if (value[0] == '\0') {
		for (int k = INVENTORY_PORTS_IB; k <= INVENTORY_PORTS_ETH; k++) {
			ic->count[k] = -1;
			ic->count_at[k] = (struct origin){};
		}
		return 0;
	}
	return config_for_each_word(value, ports_word, &w);
}

struct addr_words {
	struct inventory_config *ic;
	enum topo_kind kind;
	const struct origin *at;
};

static int addr_word(void *ctx, const char *word)
{
	struct addr_words *w = ctx;
	struct inventory_config *ic = w->ic;
	struct inventory_addr *grown, *a;
	const char *key = addr_keys[w->kind];
	uint8_t bus, dev, fn;
	uint32_t dom;

	if (pci_address_parse(word, &dom, &bus, &dev, &fn) < 0 || dom > 0xffff)
		return config_error_at(w->at, "%s=: invalid PCI address '%s' (dddd:bb:dd.f)", key,
				       word);
	if (ic->n_addrs[w->kind] >= INVENTORY_ADDRS_MAX) {
		config_error_at(w->at, "%s=: too many addresses (at most %d)", key,
				INVENTORY_ADDRS_MAX);
		return -E2BIG;
	}
	grown = reallocarray(ic->addrs[w->kind], ic->n_addrs[w->kind] + 1, sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	ic->addrs[w->kind] = grown;
	a = &grown[ic->n_addrs[w->kind]];
	snprintf(a->addr, sizeof(a->addr), "%04x:%02x:%02x.%x", dom, bus, dev, fn);
	for (size_t i = 0; i < ic->n_addrs[w->kind]; i++)
		if (streq(grown[i].addr, a->addr))
			return config_error_at(w->at, "%s=: %s is listed twice (first at line %u)",
					       key, a->addr, grown[i].at.line);
	a->at = *w->at;
	ic->n_addrs[w->kind]++;
	return 0;
}

static int assign_addrs(struct inventory_config *ic, enum topo_kind kind, const char *value,
			const struct origin *at)
{
	struct addr_words w = { .ic = ic, .kind = kind, .at = at };

	if (value[0] == '\0') {
		free(ic->addrs[kind]);
		ic->addrs[kind] = NULL;
		ic->n_addrs[kind] = 0;
		return 0;
	}
	return config_for_each_word(value, addr_word, &w);
}

static int part_assign(void *state, const char *key, const char *value, const struct origin *at)
{
	struct inventory_config *ic = state;

	for (int k = INVENTORY_GPUS; k <= INVENTORY_RDMA; k++)
		if (streq(key, count_names[k]))
			return assign_count(ic, k, value, at);
	if (streq(key, "ActivePorts"))
		return assign_ports(ic, value, at);
	if (streq(key, "GPUAddresses"))
		return assign_addrs(ic, TOPO_GPU, value, at);
	if (streq(key, "NICAddresses"))
		return assign_addrs(ic, TOPO_NIC, value, at);
	return config_error_at(at,
			       "unknown key '%s' in [Inventory] section (expected GPUs, NICs, "
			       "RDMADevices, ActivePorts, GPUAddresses or NICAddresses)",
			       key);
}

/* More addresses listed than the count allows: one of the two is wrong. */
static int finish_kind(const struct inventory_config *ic, enum topo_kind kind,
		       enum inventory_count k)
{
	size_t n = ic->n_addrs[kind];

	if (ic->count[k] < 0 || n <= (size_t)ic->count[k])
		return 0;
	return config_error_at(&ic->addrs[kind][n - 1].at,
			       "%s=: %zu addresses listed, but %s=%d (line %u)", addr_keys[kind], n,
			       count_names[k], ic->count[k], ic->count_at[k].line);
}

static int part_finish(void *state, const struct config_finish *f)
{
	const struct inventory_config *ic = state;
	int r;

	if (!ic)
		return 0;
	r = finish_kind(ic, TOPO_GPU, INVENTORY_GPUS);
	if (r >= 0)
		r = finish_kind(ic, TOPO_NIC, INVENTORY_NICS);
	return r;
}

static size_t part_n_lines(const void *state)
{
	const struct inventory_config *ic = state;

	return ic ? 4 + ic->n_addrs[TOPO_GPU] + ic->n_addrs[TOPO_NIC] : 0;
}

static int count_line(const struct inventory_config *ic, enum inventory_count k, config_line_fn fn,
		      void *ud)
{
	char buf[16] = "";

	if (ic->count[k] >= 0)
		snprintf(buf, sizeof(buf), "%d", ic->count[k]);
	return fn(ud, "Inventory", count_names[k], buf, &ic->count_at[k], false);
}

/* ActivePorts= as one line: "InfiniBand:8 Ethernet:2", "" when neither is given. */
static int ports_line(const struct inventory_config *ic, config_line_fn fn, void *ud)
{
	const struct origin *at = &ic->count_at[INVENTORY_PORTS_IB];
	char buf[64] = "";
	size_t o = 0;

	for (int k = INVENTORY_PORTS_IB; k <= INVENTORY_PORTS_ETH; k++)
		if (ic->count[k] >= 0)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s:%d", o ? " " : "",
					      count_names[k], ic->count[k]);
	if (!at->file)
		at = &ic->count_at[INVENTORY_PORTS_ETH];
	return fn(ud, "Inventory", "ActivePorts", buf, at, true);
}

static int addr_lines(const struct inventory_config *ic, enum topo_kind kind, config_line_fn fn,
		      void *ud)
{
	int r = 0;

	for (size_t i = 0; r >= 0 && i < ic->n_addrs[kind]; i++)
		r = fn(ud, "Inventory", addr_keys[kind], ic->addrs[kind][i].addr,
		       &ic->addrs[kind][i].at, true);
	return r;
}

static int part_lines(const void *state, config_line_fn fn, void *ud)
{
	const struct inventory_config *ic = state;
	int r = 0;

	if (!ic)
		return 0;
	for (int k = INVENTORY_GPUS; r >= 0 && k <= INVENTORY_RDMA; k++)
		r = count_line(ic, k, fn, ud);
	if (r >= 0)
		r = ports_line(ic, fn, ud);
	if (r >= 0)
		r = addr_lines(ic, TOPO_GPU, fn, ud);
	if (r >= 0)
		r = addr_lines(ic, TOPO_NIC, fn, ud);
	return r;
}

static void part_free(void *state)
{
	struct inventory_config *ic = state;

	if (!ic)
		return;
	free(ic->addrs[TOPO_GPU]);
	free(ic->addrs[TOPO_NIC]);
	free(ic);
}

const struct config_part inventory_config_part = CONFIG_PART("[Inventory]", is_section);

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

/* GPUs=, NICs=, RDMADevices=: a count, -1 when not given. */
static int parse_count(const struct config_item *it, void *state, const char *value,
		       const struct origin *at)
{
	int *count = config_item_field(it, state);
	int n;

	if (value[0] == '\0') {
		*count = -1;
		*config_item_at(it, state) = (struct origin){};
		return 0;
	}
	n = inventory_parse_count(value);
	if (n < 0)
		return config_error_at(at, "%s=: invalid count '%s' (a number from 0 to %d)",
				       it->key, value, INVENTORY_COUNT_MAX);
	*count = n;
	*config_item_at(it, state) = *at;
	return 0;
}

static const char *print_count(const struct config_item *it, const void *state, char *buf,
			       size_t size)
{
	int count = *(const int *)config_item_field_const(it, state);

	if (count < 0)
		return "";
	snprintf(buf, size, "%d", count);
	return buf;
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
static int parse_ports(const struct config_item *it, void *state, const char *value,
		       const struct origin *at)
{
	struct inventory_config *ic = state;
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

	if (pci_address_parse(word, &dom, &bus, &dev, &fn) < 0) /* VMD: a five-digit domain */
		return config_error_at(w->at, "%s=: invalid PCI address '%s' ([dddd:]bb:dd.f)", key,
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

/* GPUAddresses=, NICAddresses=: ltype is the kind (an enum topo_kind). */
static int parse_addrs(const struct config_item *it, void *state, const char *value,
		       const struct origin *at)
{
	struct inventory_config *ic = state;
	enum topo_kind kind = *(const enum topo_kind *)it->ltype;
	struct addr_words w = { .ic = ic, .kind = kind, .at = at };

	if (value[0] == '\0') {
		free(ic->addrs[kind]);
		ic->addrs[kind] = NULL;
		ic->n_addrs[kind] = 0;
		return 0;
	}
	return config_for_each_word(value, addr_word, &w);
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

/* ActivePorts= as one line: "InfiniBand:8 Ethernet:2", "" when neither is given. */
static int ports_lines(const struct config_item *it, const void *state, const char *section,
		       config_line_fn fn, void *ud)
{
	const struct inventory_config *ic = state;
	const struct origin *at = &ic->count_at[INVENTORY_PORTS_IB];
	char buf[64] = "";
	size_t o = 0;

	for (int k = INVENTORY_PORTS_IB; k <= INVENTORY_PORTS_ETH; k++)
		if (ic->count[k] >= 0)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s:%d", o ? " " : "",
					      count_names[k], ic->count[k]);
	if (!at->file)
		at = &ic->count_at[INVENTORY_PORTS_ETH];
	return fn(ud, section, it->key, buf, at, true);
}

static size_t ports_n_lines(const struct config_item *it, const void *state)
{
	return 1;
}

/* An address list's lines: none for an empty one (the default, nothing required). */
static size_t addrs_n_lines(const struct config_item *it, const void *state)
{
	return ((const struct inventory_config *)state)
		->n_addrs[*(const enum topo_kind *)it->ltype];
}

static int addrs_lines(const struct config_item *it, const void *state, const char *section,
		       config_line_fn fn, void *ud)
{
	const struct inventory_config *ic = state;
	enum topo_kind kind = *(const enum topo_kind *)it->ltype;
	int r = 0;

	for (size_t i = 0; r >= 0 && i < ic->n_addrs[kind]; i++)
		r = fn(ud, section, it->key, ic->addrs[kind][i].addr, &ic->addrs[kind][i].at, true);
	return r;
}

static const struct config_item_list ports_list = { ports_n_lines, ports_lines };
static const struct config_item_list addrs_list = { addrs_n_lines, addrs_lines };
static const enum topo_kind kind_gpu = TOPO_GPU, kind_nic = TOPO_NIC;

/* In dump order; a new section starts from each one's empty value (nothing expected). */
static const struct config_item inventory_items[] = {
	CONFIG_ITEM_AT("GPUs", parse_count, print_count, NULL, 0, struct inventory_config,
		       count[INVENTORY_GPUS], count_at[INVENTORY_GPUS]),
	CONFIG_ITEM_AT("NICs", parse_count, print_count, NULL, 0, struct inventory_config,
		       count[INVENTORY_NICS], count_at[INVENTORY_NICS]),
	CONFIG_ITEM_AT("RDMADevices", parse_count, print_count, NULL, 0, struct inventory_config,
		       count[INVENTORY_RDMA], count_at[INVENTORY_RDMA]),
	CONFIG_ITEM_LIST("ActivePorts", parse_ports, &ports_list, NULL, struct inventory_config,
			 count),
	CONFIG_ITEM_LIST("GPUAddresses", parse_addrs, &addrs_list, &kind_gpu,
			 struct inventory_config, addrs),
	CONFIG_ITEM_LIST("NICAddresses", parse_addrs, &addrs_list, &kind_nic,
			 struct inventory_config, addrs),
};

static int part_section(void **state, const char *name, const struct origin *at, unsigned file_no)
{
	int r = CONFIG_SINGLETON_ENTER(state, struct inventory_config, "Inventory", at, file_no);

	if (r == 1)
		r = config_items_defaults(inventory_items, ARRAY_SIZE(inventory_items), *state);
	return r < 0 ? r : 0;
}

static int part_assign(void *state, const char *key, const char *value, const struct origin *at)
{
	int r = config_items_assign(inventory_items, ARRAY_SIZE(inventory_items), state, key, value,
				    at);

	if (r == -ENOKEY)
		return config_items_unknown(inventory_items, ARRAY_SIZE(inventory_items),
					    "Inventory", key, at);
	return r;
}

static size_t part_n_lines(const void *state)
{
	return state ? config_items_n_lines(inventory_items, ARRAY_SIZE(inventory_items), state)
		     : 0;
}

static int part_lines(const void *state, config_line_fn fn, void *ud)
{
	if (!state)
		return 0;
	return config_items_lines(inventory_items, ARRAY_SIZE(inventory_items), state, "Inventory",
				  fn, ud);
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

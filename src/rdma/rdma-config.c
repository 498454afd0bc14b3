// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <fnmatch.h>
#include <net/if.h>
#include <string.h>

#include "core/log.h"
#include "rdma/rdma-config.h"

bool port_config_is_section(const char *name)
{
	return strneq(name, PORT_PREFIX, strlen(PORT_PREFIX));
}

static bool valid_rule_name(const char *s)
{
	size_t n = strlen(s);

	return n >= 1 && n <= PORT_NAME_MAX &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") == n;
}

/* fnmatch has no error for a malformed pattern: refuse what it would silently mis-read. */
static const char *glob_problem(const char *s)
{
	bool in_class = false;

	if (strlen(s) > PORT_GLOB_MAX)
		return "longer than 64 characters";
	for (const char *p = s; *p; p++) {
		if (in_class) {
			if (*p == ']' && p[-1] != '[' && !(p[-1] == '!' && p[-2] == '['))
				in_class = false;
			continue;
		}
		if (*p == '[')
			in_class = true;
		else if (*p == ']')
			return "']' without '['";
		else if (*p == '/' || *p == '\\' || !isgraph((unsigned char)*p))
			return "'/', '\\' and control characters cannot be in a device name";
	}
	return in_class ? "'[' without ']'" : NULL;
}

static int parse_sel(const char *text, struct port_sel *ret, const struct origin *at,
		     const char *key)
{
	const char *why;

	*ret = (struct port_sel){ .at = *at };
	if (strneq(text, "pci:", 4)) {
		if (selector_parse(text + 4, &ret->pci, &why) < 0 ||
		    (ret->pci.kind != SELECTOR_ADDRESS && ret->pci.kind != SELECTOR_ID) ||
		    ret->pci.upstream)
			return config_error_at(
				at, "%s=: invalid '%s' (pci:DDDD:BB:DD.F or pci:VVVV:DDDD)", key,
				text);
		ret->kind = ret->pci.kind == SELECTOR_ADDRESS ? PORT_SEL_PCI_ADDR : PORT_SEL_PCI_ID;
	} else {
		why = glob_problem(text);
		if (why)
			return config_error_at(at, "%s=: invalid device glob '%s': %s", key, text,
					       why);
		ret->kind = PORT_SEL_GLOB;
	}
	ret->text = strdup(text);
	return ret->text ? 0 : -ENOMEM;
}

static void sels_free(struct port_sel *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].text);
	free(v);
}

static int assign_sels(struct port_sel **v, size_t *n, const char *key, const char *value,
		       const struct origin *at)
{
	_cleanup_(freep) char *copy = strdup(value);
	char *save = NULL;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	if (!*value) {
		sels_free(*v, *n);
		*v = NULL;
		*n = 0;
		return 0;
	}
	for (char *tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		struct port_sel s, *grown;

		if (*n >= PORT_MAX_SELECTORS)
			return config_error_at(at, "%s=: too many entries (at most %d)", key,
					       PORT_MAX_SELECTORS);
		r = parse_sel(tok, &s, at, key);
		if (r < 0)
			return r;
		grown = reallocarray(*v, *n + 1, sizeof(*grown));
		if (!grown) {
			free(s.text);
			return -ENOMEM;
		}
		*v = grown;
		(*v)[(*n)++] = s;
	}
	return r;
}

/* Select=, Exclude=: the list is the item's field, its count at the offset ltype holds. */
static size_t *sels_n(const struct config_item *it, const void *state)
{
	return (size_t *)((char *)state + *(const size_t *)it->ltype);
}

/* An empty Select= is remembered: a rule it leaves with no selector is blamed there. */
static int parse_sels(const struct config_item *it, void *state, const char *value,
		      const struct origin *at)
{
	struct port_rule *r = state;

	if (value[0] == '\0' && streq(it->key, "Select"))
		r->select_reset_at = *at;
	return assign_sels(config_item_field(it, state), sels_n(it, state), it->key, value, at);
}

static size_t sels_n_lines(const struct config_item *it, const void *state)
{
	return *sels_n(it, state);
}

static int sels_lines(const struct config_item *it, const void *state, const char *section,
		      config_line_fn fn, void *ud)
{
	const struct port_sel *v = *(struct port_sel *const *)config_item_field_const(it, state);
	int r = 0;

	for (size_t i = 0; r >= 0 && i < *sels_n(it, state); i++)
		r = fn(ud, section, it->key, v[i].text, &v[i].at, true);
	return r;
}

static int parse_uint(const char *s, unsigned max, unsigned *ret)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end || errno || v > max)
		return -EINVAL;
	*ret = (unsigned)v;
	return 0;
}

static int parse_ports(const struct config_item *it, void *state, const char *value,
		       const struct origin *at)
{
	struct port_rule *rule = state;
	_cleanup_(freep) char *copy = strdup(value);
	char *save = NULL;

	if (!copy)
		return -ENOMEM;
	if (!*value) {
		free(rule->ports);
		rule->ports = NULL;
		rule->n_ports = 0;
		return 0;
	}
	for (char *tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		struct port_num *grown;
		unsigned num;

		if (parse_uint(tok, 255, &num) < 0 || num == 0)
			return config_error_at(at, "Ports=: invalid port number '%s' (1-255)", tok);
		if (rule->n_ports >= RDMA_MAX_PORTS)
			return config_error_at(at, "Ports=: too many entries (at most %d)",
					       RDMA_MAX_PORTS);
		grown = reallocarray(rule->ports, rule->n_ports + 1, sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		rule->ports = grown;
		rule->ports[rule->n_ports++] = (struct port_num){ num, *at };
	}
	return 0;
}

/* LinkLayer=, SelectLinkLayer=: an enum rdma_link_layer field, RDMA_LL_UNKNOWN (any) by default. */
static int parse_link_layer(const struct config_item *it, void *state, const char *value,
			    const struct origin *at)
{
	enum rdma_link_layer ll = RDMA_LL_UNKNOWN;

	if (config_enum_eq(value, "InfiniBand"))
		ll = RDMA_LL_INFINIBAND;
	else if (config_enum_eq(value, "Ethernet"))
		ll = RDMA_LL_ETHERNET;
	else if (*value && !config_enum_eq(value, "any"))
		return config_error_at(at,
				       "%s=: unknown link layer '%s' (any, InfiniBand or "
				       "Ethernet)",
				       it->key, value);
	*(enum rdma_link_layer *)config_item_field(it, state) = ll;
	*config_item_at(it, state) = *value ? *at : (struct origin){};
	return 0;
}

static const char *print_link_layer(const struct config_item *it, const void *state, char *buf,
				    size_t size)
{
	enum rdma_link_layer ll = *(const enum rdma_link_layer *)config_item_field_const(it, state);

	return ll ? rdma_link_layer_to_string(ll) : "any";
}

static int parse_min_rate(const struct config_item *it, void *state, const char *value,
			  const struct origin *at)
{
	struct port_rule *rule = state;
	uint32_t v = 0;

	if (*value && rdma_parse_min_rate(value, &v) < 0)
		return config_error_at(at,
				       "MinRate=: impossible rate '%s' (Gb/s between 1 and 3200, "
				       "e.g. 200 or 400, or a link name: SDR DDR QDR FDR10 FDR "
				       "EDR HDR NDR XDR, HDR100 NDR200)",
				       value);
	rule->min_rate_mbps = v;
	rule->min_rate_at = *value ? *at : (struct origin){};
	return 0;
}

bool rdma_fw_valid(const char *s)
{
	bool digit = false;

	for (; *s; s++) {
		if (*s == '.' && !digit)
			return false;
		digit = *s != '.';
		if (digit && !isdigit((unsigned char)*s))
			return false;
	}
	return digit;
}

int rdma_fw_compare(const char *a, const char *b, int *ret)
{
	while (*a || *b) {
		unsigned long x = 0, y = 0;
		char *end;

		if ((*a && !isdigit((unsigned char)*a)) || (*b && !isdigit((unsigned char)*b)))
			return -EINVAL;
		if (*a) {
			x = strtoul(a, &end, 10);
			a = end;
		}
		if (*b) {
			y = strtoul(b, &end, 10);
			b = end;
		}
		if (x != y)
			return *ret = x < y ? -1 : 1, 0;
		if ((*a && *a != '.') || (*b && *b != '.'))
			return -EINVAL;
		a += *a == '.';
		b += *b == '.';
	}
	return *ret = 0, 0;
}

static int parse_min_fw(const struct config_item *it, void *state, const char *value,
			const struct origin *at)
{
	struct port_rule *rule = state;
	if (*value && (strlen(value) >= RDMA_FW_MAX || !rdma_fw_valid(value)))
		return config_error_at(at,
				       "MinFirmware=: '%s' is not a firmware version (numbers "
				       "and dots, as fw_ver reads: 28.39.1002)",
				       value);
	strcpy(rule->min_fw, value);
	rule->min_fw_at = *value ? *at : (struct origin){};
	return 0;
}

static int parse_fw(const struct config_item *it, void *state, const char *value,
		    const struct origin *at)
{
	struct port_rule *rule = state;
	_cleanup_(freep) char *copy = strdup(value);
	char *save = NULL;

	if (!copy)
		return -ENOMEM;
	if (!*value) {
		strv_free(rule->fw);
		free(rule->fw_at);
		rule->fw = NULL;
		rule->fw_at = NULL;
		rule->n_fw = 0;
		return 0;
	}
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		char **grown;
		struct origin *gat;

		if (rule->n_fw >= PORT_MAX_FW || strlen(w) >= RDMA_FW_MAX)
			return config_error_at(at, "Firmware=: at most %d versions of %d bytes",
					       PORT_MAX_FW, RDMA_FW_MAX - 1);
		grown = reallocarray(rule->fw, rule->n_fw + 2, sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		rule->fw = grown;
		gat = reallocarray(rule->fw_at, rule->n_fw + 1, sizeof(*gat));
		if (!gat)
			return -ENOMEM;
		rule->fw_at = gat;
		rule->fw[rule->n_fw] = strdup(w);
		if (!rule->fw[rule->n_fw])
			return -ENOMEM;
		rule->fw_at[rule->n_fw++] = *at;
		rule->fw[rule->n_fw] = NULL;
	}
	return 0;
}

/* CounterLimit=: words override one counter each; an empty value restores the defaults. */
static int parse_counter_limits(const struct config_item *it, void *state, const char *value,
				const struct origin *at)
{
	struct port_rule *rule = state;
	_cleanup_(freep) char *copy = strdup(value);
	char *save = NULL;

	if (!copy)
		return -ENOMEM;
	if (!*value) {
		rdma_counter_defaults(rule->limits);
		memset(rule->limit_at, 0, sizeof(rule->limit_at));
		return 0;
	}
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		struct rdma_counter_limit l;
		enum rdma_counter c;
		const char *why;

		if (rdma_counter_limit_parse(w, &c, &l, &why) < 0)
			return config_error_at(at, "CounterLimit=: '%s': %s", w, why);
		rule->limits[c] = l;
		rule->limit_at[c] = *at;
	}
	return 0;
}

/*
 * SocketInterface=IFNAME[,IFNAME...]: interface names (1-15 bytes) of the characters
 * rdma.env writes (A-Z a-z 0-9 _ . : -); the last assignment wins, an empty one resets.
 */
static int parse_socket_if(const struct config_item *it, void *state, const char *value,
			   const struct origin *at)
{
	struct port_rule *rule = state;
	const char *ok = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:-";

	if (strlen(value) > PORT_SOCKET_IF_MAX)
		return config_error_at(at, "SocketInterface=: longer than %d bytes",
				       PORT_SOCKET_IF_MAX);
	for (const char *w = value; *value && w;) {
		size_t n = strcspn(w, ",");

		if (n == 0 || n >= IF_NAMESIZE || strspn(w, ok) < n)
			return config_error_at(at,
					       "SocketInterface=: invalid interface name in "
					       "'%s' (1-%d bytes of A-Z a-z 0-9 _ . : -, "
					       "separated by ',')",
					       value, IF_NAMESIZE - 1);
		w = w[n] ? w + n + 1 : NULL;
	}
	strcpy(rule->socket_if, value);
	rule->socket_if_at = *value ? *at : (struct origin){};
	return 0;
}

/* MinWidth=, MinMTU=, MinActive=: an unsigned minimum, 0 (an empty value) for none. */
struct port_min {
	int (*parse)(const char *s, unsigned *ret); /* -EINVAL for what the key refuses */
	const char *what, *choices;		    /* "KEY=: invalid WHAT 'v' (CHOICES)" */
	const char *format;			    /* the dump's, of the number */
};

static int parse_min(const struct config_item *it, void *state, const char *value,
		     const struct origin *at)
{
	const struct port_min *m = it->ltype;
	unsigned v = 0;

	if (*value && m->parse(value, &v) < 0)
		return config_error_at(at, "%s=: invalid %s '%s' (%s)", it->key, m->what, value,
				       m->choices);
	*(unsigned *)config_item_field(it, state) = v;
	*config_item_at(it, state) = *value ? *at : (struct origin){};
	return 0;
}

/* None: empty. */
static const char *print_min(const struct config_item *it, const void *state, char *buf,
			     size_t size)
{
	const struct port_min *m = it->ltype;
	unsigned v = *(const unsigned *)config_item_field_const(it, state);

	if (!v)
		return "";
	snprintf(buf, size, m->format, v);
	return buf;
}

static int parse_mtu(const char *s, unsigned *ret)
{
	if (parse_uint(s, 4096, ret) < 0 || *ret < 256 || (*ret & (*ret - 1)))
		return -EINVAL;
	return 0;
}

static int parse_active(const char *s, unsigned *ret)
{
	if (parse_uint(s, RDMA_MAX_DEVICES * RDMA_MAX_PORTS, ret) < 0 || *ret == 0)
		return -EINVAL;
	return 0;
}

static const struct port_min min_width = { rdma_parse_width, "width", "1X, 2X, 4X, 8X or 12X",
					   "%uX" };
static const struct port_min min_mtu = { parse_mtu, "MTU", "256, 512, 1024, 2048 or 4096", "%u" };
static const struct port_min min_active = { parse_active, "count", "a number from 1", "%u" };

/* None: empty. */
static const char *print_min_rate(const struct config_item *it, const void *state, char *buf,
				  size_t size)
{
	const struct port_rule *rule = state;

	if (!rule->min_rate_mbps)
		return "";
	rdma_mbps_format(rule->min_rate_mbps, buf, size);
	return buf;
}

static const char *print_socket_if(const struct config_item *it, const void *state, char *buf,
				   size_t size)
{
	return ((const struct port_rule *)state)->socket_if;
}

static size_t ports_n_lines(const struct config_item *it, const void *state)
{
	return ((const struct port_rule *)state)->n_ports;
}

static int ports_lines(const struct config_item *it, const void *state, const char *section,
		       config_line_fn fn, void *ud)
{
	const struct port_rule *rule = state;
	char num[16];
	int r = 0;

	for (size_t i = 0; r >= 0 && i < rule->n_ports; i++) {
		snprintf(num, sizeof(num), "%u", rule->ports[i].num);
		r = fn(ud, section, it->key, num, &rule->ports[i].at, true);
	}
	return r;
}

/* MinFirmware= is a scalar, but dumped only when given, as a list no one gave is. */
static size_t min_fw_n_lines(const struct config_item *it, const void *state)
{
	return ((const struct port_rule *)state)->min_fw[0] != '\0';
}

static int min_fw_lines(const struct config_item *it, const void *state, const char *section,
			config_line_fn fn, void *ud)
{
	const struct port_rule *rule = state;

	if (!rule->min_fw[0])
		return 0;
	return fn(ud, section, it->key, rule->min_fw, &rule->min_fw_at, false);
}

static size_t fw_n_lines(const struct config_item *it, const void *state)
{
	return ((const struct port_rule *)state)->n_fw;
}

static int fw_lines(const struct config_item *it, const void *state, const char *section,
		    config_line_fn fn, void *ud)
{
	const struct port_rule *rule = state;
	int r = 0;

	for (size_t i = 0; r >= 0 && i < rule->n_fw; i++)
		r = fn(ud, section, it->key, rule->fw[i], &rule->fw_at[i], true);
	return r;
}

/* A counter at its default has no line, as a list no one gave has none. */
static size_t limits_n_lines(const struct config_item *it, const void *state)
{
	const struct port_rule *rule = state;
	size_t n = 0;

	for (int c = 0; c < _RDMA_CTR_MAX; c++)
		n += rule->limit_at[c].file != NULL;
	return n;
}

static int limits_lines(const struct config_item *it, const void *state, const char *section,
			config_line_fn fn, void *ud)
{
	const struct port_rule *rule = state;
	char word[80];
	int r = 0;

	for (int c = 0; r >= 0 && c < _RDMA_CTR_MAX; c++) {
		if (!rule->limit_at[c].file)
			continue;
		rdma_counter_limit_format(c, &rule->limits[c], word, sizeof(word));
		r = fn(ud, section, it->key, word, &rule->limit_at[c], true);
	}
	return r;
}

static const struct config_item_list sels_dump = { sels_n_lines, sels_lines };
static const struct config_item_list ports_dump = { ports_n_lines, ports_lines };
static const struct config_item_list min_fw_dump = { min_fw_n_lines, min_fw_lines };
static const struct config_item_list fw_dump = { fw_n_lines, fw_lines };
static const struct config_item_list limits_dump = { limits_n_lines, limits_lines };
static const size_t n_select_offset = offsetof(struct port_rule, n_select);
static const size_t n_exclude_offset = offsetof(struct port_rule, n_exclude);

/*
 * A key whose parser and printer reach its field through the item (config_item_field()):
 * the field must be a T (a compile error otherwise), its origin field_at.
 */
#define CONFIG_ITEM_PORT(key_, parse_, print_, ltype_, field, field_at, T)                        \
	CONFIG_ITEM_AT(key_, parse_, print_, ltype_, CONFIG_FIELD_IS(struct port_rule, field, T), \
		       struct port_rule, field, field_at)

/* A rule's keys, in dump order; a new rule starts from their defaults (port_config_section()). */
static const struct config_item port_items[] = {
	CONFIG_ITEM_LIST("Select", parse_sels, &sels_dump, &n_select_offset, struct port_rule,
			 select),
	CONFIG_ITEM_LIST("Exclude", parse_sels, &sels_dump, &n_exclude_offset, struct port_rule,
			 exclude),
	CONFIG_ITEM_LIST("Ports", parse_ports, &ports_dump, NULL, struct port_rule, ports),
	CONFIG_ITEM_LIST("MinFirmware", parse_min_fw, &min_fw_dump, NULL, struct port_rule, min_fw),
	CONFIG_ITEM_LIST("Firmware", parse_fw, &fw_dump, NULL, struct port_rule, fw),
	CONFIG_ITEM_LIST("CounterLimit", parse_counter_limits, &limits_dump, NULL, struct port_rule,
			 limits),
	CONFIG_ITEM_BOOL("AllowDown", struct port_rule, allow_down, false),
	CONFIG_ITEM_PORT("SelectLinkLayer", parse_link_layer, print_link_layer, NULL, select_layer,
			 select_layer_at, enum rdma_link_layer),
	CONFIG_ITEM_PORT("LinkLayer", parse_link_layer, print_link_layer, NULL, link_layer,
			 link_layer_at, enum rdma_link_layer),
	CONFIG_ITEM_AT("MinRate", parse_min_rate, print_min_rate, NULL, 0, struct port_rule,
		       min_rate_mbps, min_rate_at),
	CONFIG_ITEM_PORT("MinWidth", parse_min, print_min, &min_width, min_width, min_width_at,
			 unsigned),
	CONFIG_ITEM_PORT("MinMTU", parse_min, print_min, &min_mtu, min_mtu, min_mtu_at, unsigned),
	CONFIG_ITEM_BOOL("RoCEv2", struct port_rule, roce_v2, false),
	CONFIG_ITEM_PORT("MinActive", parse_min, print_min, &min_active, min_active, min_active_at,
			 unsigned),
	CONFIG_ITEM_BOOL("Env", struct port_rule, env, true),
	CONFIG_ITEM("SocketInterface", parse_socket_if, print_socket_if, NULL, struct port_rule,
		    socket_if),
	CONFIG_ITEM_BOOL("HCOLL", struct port_rule, hcoll, true),
};

int port_config_section(struct port_config **pc, const char *name, const struct origin *at,
			unsigned file_no)
{
	const char *rn = name + strlen(PORT_PREFIX);
	struct port_rule t = { .at = *at };
	int r;

	if (!*pc) {
		*pc = calloc(1, sizeof(**pc));
		if (!*pc)
			return -ENOMEM;
	}
	(*pc)->cur = SIZE_MAX;
	if (!valid_rule_name(rn))
		return config_error_at(
			at, "invalid rule name '%s' (1-%d characters of A-Z a-z 0-9 _ . -)", rn,
			PORT_NAME_MAX);
	strcpy(t.name, rn);
	r = config_items_defaults(port_items, ARRAY_SIZE(port_items), &t);
	if (r < 0)
		return r;
	r = CONFIG_RULE_ENTER(&(*pc)->rules, &(*pc)->n_rules, PORT_MAX_RULES, &t, PORT_PREFIX,
			      "NAME", at, file_no);
	if (r < 0)
		return r;
	(*pc)->cur = (size_t)r;
	return 0;
}

int port_config_assign(struct port_config *pc, const char *key, const char *value,
		       const struct origin *at)
{
	struct port_rule *rule;
	int r;

	if (!pc || pc->cur >= pc->n_rules)
		return 0; /* the section header was bad and said so */
	rule = &pc->rules[pc->cur];
	r = config_items_assign(port_items, ARRAY_SIZE(port_items), rule, key, value, at);
	if (r == -ENOKEY)
		r = config_error_at(at, "unknown key '%s' in [" PORT_PREFIX "*] section", key);
	if (r == -EINVAL)
		rule->had_error = true;
	return r;
}

static bool literal_name(const struct port_sel *s)
{
	return s->kind == PORT_SEL_GLOB && !strpbrk(s->text, "*?[");
}

/* With Ports= and only literal device names the most ports a rule can select is known. */
static int check_min_active(const struct port_rule *r)
{
	size_t names = 0;

	if (!r->min_active || !r->n_ports)
		return 0;
	for (size_t i = 0; i < r->n_select; i++) {
		if (!literal_name(&r->select[i]))
			return 0;
		names++;
	}
	if (r->min_active > names * r->n_ports)
		return config_error_at(&r->min_active_at,
				       "MinActive=%u is more than the %zu port(s) [" PORT_PREFIX
				       "%s] can select (%zu device(s) x %zu in Ports=)",
				       r->min_active, names * r->n_ports, r->name, names,
				       r->n_ports);
	return 0;
}

static bool ports_overlap(const struct port_rule *a, const struct port_rule *b)
{
	if (!a->n_ports || !b->n_ports)
		return true;
	for (size_t i = 0; i < a->n_ports; i++)
		for (size_t j = 0; j < b->n_ports; j++)
			if (a->ports[i].num == b->ports[j].num)
				return true;
	return false;
}

static const struct port_sel *same_select(const struct port_rule *a, const struct port_rule *b)
{
	for (size_t i = 0; i < a->n_select; i++)
		for (size_t j = 0; j < b->n_select; j++)
			if (streq(a->select[i].text, b->select[j].text))
				return &b->select[j];
	return NULL;
}

/* Decidable from the config alone: the same Select= string, overlapping ports, two layers. */
static int check_contradiction(const struct port_rule *a, const struct port_rule *b)
{
	const struct port_sel *s;

	if (a->link_layer == RDMA_LL_UNKNOWN || b->link_layer == RDMA_LL_UNKNOWN ||
	    a->link_layer == b->link_layer || !ports_overlap(a, b))
		return 0;
	if (a->select_layer && b->select_layer && a->select_layer != b->select_layer)
		return 0; /* the two rules select disjoint ports */
	s = same_select(a, b);
	if (!s)
		return 0;
	return config_error_at(
		&b->link_layer_at,
		"[" PORT_PREFIX "%s] and [" PORT_PREFIX "%s] (%s:%u) both select '%s' "
		"but want LinkLayer=%s and LinkLayer=%s",
		b->name, a->name, a->link_layer_at.file, a->link_layer_at.line, s->text,
		rdma_link_layer_to_string(b->link_layer), rdma_link_layer_to_string(a->link_layer));
}

static int check_rule(const struct port_rule *r)
{
	if (!r->n_select && !r->had_error && r->select_reset_at.file)
		return config_error_at(&r->select_reset_at,
				       "this empty Select= leaves [" PORT_PREFIX "%s] with no "
				       "selector; add Select= lines after it",
				       r->name);
	if (!r->n_select)
		return r->had_error ? 0
				    : config_error_at(&r->at,
						      "[" PORT_PREFIX "%s] needs Select=", r->name);
	if (r->roce_v2 && r->link_layer == RDMA_LL_INFINIBAND)
		return config_error_at(&r->roce_v2_at,
				       "RoCEv2=yes cannot hold on LinkLayer=InfiniBand ports "
				       "([" PORT_PREFIX "%s])",
				       r->name);
	if (r->select_layer && r->link_layer && r->select_layer != r->link_layer)
		return config_error_at(&r->link_layer_at,
				       "LinkLayer=%s cannot hold on the SelectLinkLayer=%s ports "
				       "([" PORT_PREFIX "%s] selects only those)",
				       rdma_link_layer_to_string(r->link_layer),
				       rdma_link_layer_to_string(r->select_layer), r->name);
	return check_min_active(r);
}

int port_config_finish(const struct port_config *pc)
{
	int ret = 0;

	if (!pc)
		return 0;
	for (size_t i = 0; i < pc->n_rules; i++) {
		if (check_rule(&pc->rules[i]) < 0)
			ret = -EINVAL;
		for (size_t j = 0; j < i; j++)
			if (check_contradiction(&pc->rules[j], &pc->rules[i]) < 0)
				ret = -EINVAL;
	}
	return ret;
}

void port_config_free(struct port_config *pc)
{
	if (!pc)
		return;
	for (size_t i = 0; i < pc->n_rules; i++) {
		sels_free(pc->rules[i].select, pc->rules[i].n_select);
		sels_free(pc->rules[i].exclude, pc->rules[i].n_exclude);
		free(pc->rules[i].ports);
		strv_free(pc->rules[i].fw);
		free(pc->rules[i].fw_at);
	}
	free(pc->rules);
	free(pc);
}

static bool sel_matches(const struct port_sel *s, const struct rdma_device *d)
{
	struct pci_ident id = {};

	if (s->kind == PORT_SEL_GLOB)
		return fnmatch(s->text, d->name, 0) == 0;
	if (!d->pci || pci_address_parse(d->pci, &id.domain, &id.bus, &id.dev, &id.func) < 0)
		return false;
	if (s->kind == PORT_SEL_PCI_ID && !d->have_ids)
		return false;
	id.vendor = d->vendor;
	id.device = d->device;
	return selector_match_ident(&s->pci, &id);
}

bool port_rule_selects_device(const struct port_rule *r, const struct rdma_device *d)
{
	bool in = false;

	for (size_t i = 0; i < r->n_select && !in; i++)
		in = sel_matches(&r->select[i], d);
	for (size_t i = 0; i < r->n_exclude && in; i++)
		in = !sel_matches(&r->exclude[i], d);
	return in;
}

/*
 * A port whose link layer could not be read stays selected: its rdma.port result says
 * unknown, where leaving it out would hide it.
 */
bool port_rule_selects_port(const struct port_rule *r, const struct rdma_port *p)
{
	if (r->select_layer && p->link_layer && p->link_layer != r->select_layer)
		return false;
	if (!r->n_ports)
		return true;
	for (size_t i = 0; i < r->n_ports; i++)
		if (r->ports[i].num == p->num)
			return true;
	return false;
}

/* ---- dump ---- */

static size_t part_n_lines(const void *state)
{
	const struct port_config *pc = state;
	size_t n = 0;

	for (size_t i = 0; pc && i < pc->n_rules; i++)
		n += config_items_n_lines(port_items, ARRAY_SIZE(port_items), &pc->rules[i]);
	return n;
}

static int rule_lines(const struct port_rule *rl, config_line_fn fn, void *ud)
{
	char section[sizeof(PORT_PREFIX) + PORT_NAME_MAX];

	snprintf(section, sizeof(section), PORT_PREFIX "%s", rl->name);
	return config_items_lines(port_items, ARRAY_SIZE(port_items), rl, section, fn, ud);
}

static int part_lines(const void *state, config_line_fn fn, void *userdata)
{
	const struct port_config *pc = state;
	int r = 0;

	for (size_t i = 0; pc && r >= 0 && i < pc->n_rules; i++)
		r = rule_lines(&pc->rules[i], fn, userdata);
	return r;
}

static int part_section(void **state, const char *name, const struct origin *at, unsigned file_no)
{
	struct port_config *pc = *state;
	int r = port_config_section(&pc, name, at, file_no);

	*state = pc;
	return r;
}

static int part_assign(void *state, const char *key, const char *value, const struct origin *at)
{
	return port_config_assign(state, key, value, at);
}

static int part_finish(void *state, const struct config_finish *f)
{
	return port_config_finish(state);
}

static void part_free(void *state)
{
	port_config_free(state);
}

const struct config_part port_config_part =
	CONFIG_PART("[" PORT_PREFIX "NAME]", port_config_is_section);

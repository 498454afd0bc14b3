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

int port_config_section(struct port_config **pc, const char *name, const struct origin *at,
			unsigned file_no)
{
	const char *rn = name + strlen(PORT_PREFIX);
	struct port_rule t = { .at = *at, .env = true, .hcoll = true };
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
	rdma_counter_defaults(t.limits);
	r = CONFIG_RULE_ENTER(&(*pc)->rules, &(*pc)->n_rules, PORT_MAX_RULES, &t, PORT_PREFIX,
			      "NAME", at, file_no);
	if (r < 0)
		return r;
	(*pc)->cur = (size_t)r;
	return 0;
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

static int assign_ports(struct port_rule *rule, const char *value, const struct origin *at)
{
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

static int assign_bool(bool *ret, struct origin *ret_at, const char *key, const char *value,
		       const struct origin *at)
{
	return config_set_boolean(key, value, at, false, ret, ret_at);
}

static int assign_link_layer(enum rdma_link_layer *ret, struct origin *ret_at, const char *key,
			     const char *value, const struct origin *at)
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
				       key, value);
	*ret = ll;
	*ret_at = *value ? *at : (struct origin){};
	return 0;
}

static int assign_min_rate(struct port_rule *rule, const char *value, const struct origin *at)
{
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

static int assign_min_width(struct port_rule *rule, const char *value, const struct origin *at)
{
	unsigned w = 0;

	if (*value && rdma_parse_width(value, &w) < 0)
		return config_error_at(at, "MinWidth=: invalid width '%s' (1X, 2X, 4X, 8X or 12X)",
				       value);
	rule->min_width = w;
	rule->min_width_at = *value ? *at : (struct origin){};
	return 0;
}

static int assign_min_mtu(struct port_rule *rule, const char *value, const struct origin *at)
{
	unsigned m = 0;

	if (*value && (parse_uint(value, 4096, &m) < 0 || m < 256 || (m & (m - 1))))
		return config_error_at(
			at, "MinMTU=: invalid MTU '%s' (256, 512, 1024, 2048 or 4096)", value);
	rule->min_mtu = m;
	rule->min_mtu_at = *value ? *at : (struct origin){};
	return 0;
}

static int assign_min_active(struct port_rule *rule, const char *value, const struct origin *at)
{
	unsigned n = 0;

	if (*value && (parse_uint(value, RDMA_MAX_DEVICES * RDMA_MAX_PORTS, &n) < 0 || n == 0))
		return config_error_at(at, "MinActive=: invalid count '%s' (a number from 1)",
				       value);
	rule->min_active = n;
	rule->min_active_at = *value ? *at : (struct origin){};
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

static int assign_min_fw(struct port_rule *rule, const char *value, const struct origin *at)
{
	if (*value && (strlen(value) >= RDMA_FW_MAX || !rdma_fw_valid(value)))
		return config_error_at(at,
				       "MinFirmware=: '%s' is not a firmware version (numbers "
				       "and dots, as fw_ver reads: 28.39.1002)",
				       value);
	strcpy(rule->min_fw, value);
	rule->min_fw_at = *value ? *at : (struct origin){};
	return 0;
}

static int assign_fw(struct port_rule *rule, const char *value, const struct origin *at)
{
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
static int assign_counter_limits(struct port_rule *rule, const char *value, const struct origin *at)
{
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
static int assign_socket_if(struct port_rule *rule, const char *value, const struct origin *at)
{
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

static int rule_assign(struct port_rule *rule, const char *key, const char *value,
		       const struct origin *at)
{
	if (streq(key, "Select"))
		return assign_sels(&rule->select, &rule->n_select, key, value, at);
	if (streq(key, "Exclude"))
		return assign_sels(&rule->exclude, &rule->n_exclude, key, value, at);
	if (streq(key, "Ports"))
		return assign_ports(rule, value, at);
	if (streq(key, "AllowDown"))
		return assign_bool(&rule->allow_down, &rule->allow_down_at, key, value, at);
	if (streq(key, "RoCEv2"))
		return assign_bool(&rule->roce_v2, &rule->roce_v2_at, key, value, at);
	if (streq(key, "Env"))
		return config_set_boolean(key, value, at, true, &rule->env, &rule->env_at);
	if (streq(key, "SocketInterface"))
		return assign_socket_if(rule, value, at);
	if (streq(key, "HCOLL"))
		return config_set_boolean(key, value, at, true, &rule->hcoll, &rule->hcoll_at);
	if (streq(key, "LinkLayer"))
		return assign_link_layer(&rule->link_layer, &rule->link_layer_at, key, value, at);
	if (streq(key, "SelectLinkLayer"))
		return assign_link_layer(&rule->select_layer, &rule->select_layer_at, key, value,
					 at);
	if (streq(key, "MinRate"))
		return assign_min_rate(rule, value, at);
	if (streq(key, "MinWidth"))
		return assign_min_width(rule, value, at);
	if (streq(key, "MinMTU"))
		return assign_min_mtu(rule, value, at);
	if (streq(key, "MinActive"))
		return assign_min_active(rule, value, at);
	if (streq(key, "MinFirmware"))
		return assign_min_fw(rule, value, at);
	if (streq(key, "Firmware"))
		return assign_fw(rule, value, at);
	if (streq(key, "CounterLimit"))
		return assign_counter_limits(rule, value, at);
	return config_error_at(at, "unknown key '%s' in [" PORT_PREFIX "*] section", key);
}

int port_config_assign(struct port_config *pc, const char *key, const char *value,
		       const struct origin *at)
{
	struct port_rule *rule;
	int r;

	if (!pc || pc->cur >= pc->n_rules)
		return 0; /* the section header was bad and said so */
	rule = &pc->rules[pc->cur];
	r = rule_assign(rule, key, value, at);
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

/* AllowDown SelectLinkLayer LinkLayer MinRate MinWidth MinMTU RoCEv2 MinActive Env */
#define RULE_SCALARS 11

static size_t part_n_lines(const void *state)
{
	const struct port_config *pc = state;
	size_t n = 0;

	for (size_t i = 0; pc && i < pc->n_rules; i++)
		n += RULE_SCALARS + pc->rules[i].n_select + pc->rules[i].n_exclude +
		     pc->rules[i].n_ports + _RDMA_CTR_MAX + 1 + pc->rules[i].n_fw;
	return n;
}

static int sel_lines(const char *section, const char *key, const struct port_sel *v, size_t n,
		     config_line_fn fn, void *ud)
{
	int r = 0;

	for (size_t i = 0; r >= 0 && i < n; i++)
		r = fn(ud, section, key, v[i].text, &v[i].at, true);
	return r;
}

static int scalar_lines(const char *section, const struct port_rule *rl, config_line_fn fn,
			void *ud)
{
	char rate[24] = "", width[16] = "", mtu[16] = "", act[16] = "";
	int r;

	if (rl->min_rate_mbps)
		rdma_mbps_format(rl->min_rate_mbps, rate, sizeof(rate));
	if (rl->min_width)
		snprintf(width, sizeof(width), "%uX", rl->min_width);
	if (rl->min_mtu)
		snprintf(mtu, sizeof(mtu), "%u", rl->min_mtu);
	if (rl->min_active)
		snprintf(act, sizeof(act), "%u", rl->min_active);
	r = fn(ud, section, "AllowDown", rl->allow_down ? "yes" : "no", &rl->allow_down_at, false);
	if (r >= 0)
		r = fn(ud, section, "SelectLinkLayer",
		       rl->select_layer ? rdma_link_layer_to_string(rl->select_layer) : "any",
		       &rl->select_layer_at, false);
	if (r >= 0)
		r = fn(ud, section, "LinkLayer",
		       rl->link_layer ? rdma_link_layer_to_string(rl->link_layer) : "any",
		       &rl->link_layer_at, false);
	if (r >= 0)
		r = fn(ud, section, "MinRate", rate, &rl->min_rate_at, false);
	if (r >= 0)
		r = fn(ud, section, "MinWidth", width, &rl->min_width_at, false);
	if (r >= 0)
		r = fn(ud, section, "MinMTU", mtu, &rl->min_mtu_at, false);
	if (r >= 0)
		r = fn(ud, section, "RoCEv2", rl->roce_v2 ? "yes" : "no", &rl->roce_v2_at, false);
	if (r >= 0)
		r = fn(ud, section, "MinActive", act, &rl->min_active_at, false);
	if (r >= 0)
		r = fn(ud, section, "Env", rl->env ? "yes" : "no", &rl->env_at, false);
	if (r >= 0)
		r = fn(ud, section, "SocketInterface", rl->socket_if, &rl->socket_if_at, false);
	if (r >= 0)
		r = fn(ud, section, "HCOLL", rl->hcoll ? "yes" : "no", &rl->hcoll_at, false);
	return r;
}

static int rule_lines(const struct port_rule *rl, config_line_fn fn, void *ud)
{
	char section[sizeof(PORT_PREFIX) + PORT_NAME_MAX];
	char num[16];
	int r;

	snprintf(section, sizeof(section), PORT_PREFIX "%s", rl->name);
	r = sel_lines(section, "Select", rl->select, rl->n_select, fn, ud);
	if (r >= 0)
		r = sel_lines(section, "Exclude", rl->exclude, rl->n_exclude, fn, ud);
	for (size_t i = 0; r >= 0 && i < rl->n_ports; i++) {
		snprintf(num, sizeof(num), "%u", rl->ports[i].num);
		r = fn(ud, section, "Ports", num, &rl->ports[i].at, true);
	}
	if (r >= 0 && rl->min_fw[0]) /* only when given, like the lists */
		r = fn(ud, section, "MinFirmware", rl->min_fw, &rl->min_fw_at, false);
	for (size_t i = 0; r >= 0 && i < rl->n_fw; i++)
		r = fn(ud, section, "Firmware", rl->fw[i], &rl->fw_at[i], true);
	for (int c = 0; r >= 0 && c < _RDMA_CTR_MAX; c++) {
		char word[80];

		if (!rl->limit_at[c].file)
			continue; /* the default: no line, as for a list no one gave */
		rdma_counter_limit_format(c, &rl->limits[c], word, sizeof(word));
		r = fn(ud, section, "CounterLimit", word, &rl->limit_at[c], true);
	}
	return r < 0 ? r : scalar_lines(section, rl, fn, ud);
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

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pci=config_acs= and pci=disable_acs_redir= evaluated as the kernel does
 * (drivers/pci/pci.c: pci_setup(), __pci_config_acs(), pci_dev_str_match(),
 * pci_dev_str_match_path(); lib/vsprintf.c: vsscanf()), re-implemented here
 * so hostprep can say what the kernel will do with the line it was booted
 * with, quirks included.
 */
#include <stdarg.h>
#include <stdio.h>

#include "acs/acs-boot.h"
#include "acs/acs-cmdline.h"
#include "acs/acs-verify.h"

/* simple_strntoull(s, INT_MAX, &end, 16): optional 0x, wraps instead of failing. */
static uint64_t hex_u64(const char *s, const char **end)
{
	uint64_t v = 0;

	if (s[0] == '0' && (s[1] | 0x20) == 'x')
		s += 2;
	for (;; s++) {
		unsigned c = (unsigned char)*s, lc = c | 0x20;

		if (c >= '0' && c <= '9')
			v = v * 16 + (c - '0');
		else if (lc >= 'a' && lc <= 'f')
			v = v * 16 + (lc - 'a' + 10);
		else
			break;
	}
	*end = s;
	return v;
}

static bool is_xdigit(char c)
{
	unsigned lc = (unsigned char)c | 0x20;

	return (c >= '0' && c <= '9') || (lc >= 'a' && lc <= 'f');
}

/*
 * The kernel's vsscanf() for the conversions pci_dev_str_match() uses:
 * literals, %x, %hx, %c, %n. Unlike glibc it takes no sign, skips the
 * kernel's white space and truncates instead of saturating.
 */
static int kscan(const char *buf, const char *fmt, ...)
{
	const char *str = buf;
	int num = 0;
	va_list ap;

	va_start(ap, fmt);
	while (*fmt) {
		bool half = false;
		uint64_t v;

		if (*fmt != '%') {
			if (*fmt++ != *str++)
				break;
			continue;
		}
		fmt++;
		if (*fmt == 'h') {
			half = true;
			fmt++;
		}
		if (*fmt == 'n') {
			*va_arg(ap, int *) = (int)(str - buf);
			fmt++;
			continue;
		}
		if (!*str)
			break;
		if (*fmt++ == 'c') {
			*va_arg(ap, char *) = *str++;
			num++;
			continue;
		}
		while (cmdline_isspace(*str))
			str++;
		if (!is_xdigit(*str))
			break;
		v = hex_u64(str, &str);
		if (half)
			*va_arg(ap, unsigned short *) = (unsigned short)v;
		else
			*va_arg(ap, unsigned *) = (unsigned)v;
		num++;
	}
	va_end(ap);
	return num;
}

/* PCI_DEVFN(): the slot is masked to 5 bits, the function to 3. */
static unsigned devfn(unsigned slot, unsigned func)
{
	return ((slot & 0x1f) << 3) | (func & 0x07);
}

static unsigned dev_devfn(const struct pci_dev_info *d)
{
	return devfn(d->id.dev, d->id.func);
}

/* pci_dev_str_match_path(): the path is checked from its last hop up. */
static int match_path(const struct pci_inventory *inv, const struct pci_dev_info *d,
		      const char *path, const char **end)
{
	const char *stop = strchrnul(path, ';');
	_cleanup_(freep) char *w = strndup(path, stop - path);
	unsigned seg, bus, slot, func;
	char *slash, c;

	if (!w)
		return -ENOMEM;
	*end = stop;
	while ((slash = strrchr(w, '/'))) {
		if (kscan(slash, "/%x.%x%c", &slot, &func, &c) != 2)
			return -EINVAL;
		/* A hop that does not fit ends the match before the rest is parsed. */
		if (dev_devfn(d) != devfn(slot, func) || d->parent < 0)
			return 0;
		d = &inv->devs[d->parent];
		*slash = '\0';
	}
	if (kscan(w, "%x:%x:%x.%x%c", &seg, &bus, &slot, &func, &c) != 4) {
		seg = 0;
		if (kscan(w, "%x:%x.%x%c", &bus, &slot, &func, &c) != 3)
			return -EINVAL;
	}
	return seg == d->id.domain && bus == d->id.bus && dev_devfn(d) == devfn(slot, func);
}

int kacs_dev_str_match(const struct pci_inventory *inv, const struct pci_dev_info *d, const char *p,
		       const char **end)
{
	unsigned short vendor, device, sub_vendor, sub_device;
	int count = 0;

	if (!strneq(p, "pci:", 4))
		return match_path(inv, d, p, end);
	p += 4;
	if (kscan(p, "%hx:%hx:%hx:%hx%n", &vendor, &device, &sub_vendor, &sub_device, &count) !=
	    4) {
		if (kscan(p, "%hx:%hx%n", &vendor, &device, &count) != 2)
			return -EINVAL;
		sub_vendor = sub_device = 0;
	}
	*end = p + count;
	/* 0 is a wildcard, as in the kernel. */
	if ((vendor && vendor != d->id.vendor) || (device && device != d->id.device))
		return 0;
	return sub_vendor || sub_device ? -ENODATA : 1;
}

/* Printable, bounded copy of an entry's text for messages (command lines carry any byte). */
static void entry_text(const char *s, char *buf, size_t size)
{
	size_t n = 0;

	for (; *s && *s != ';' && n + 5 < size; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x20 && c < 0x7f)
			buf[n++] = (char)c;
		else
			n += snprintf(buf + n, size - n, "\\x%02x", c);
	}
	if (*s && *s != ';' && size > 4)
		strcpy(buf + (n < size - 4 ? n : size - 4), "...");
	else
		buf[n] = '\0';
}

static void stopped(struct kacs_eval *ret, unsigned entry, const char *dev, const char *fmt, ...)
	_printf_(4, 5);

static void stopped(struct kacs_eval *ret, unsigned entry, const char *dev, const char *fmt, ...)
{
	va_list ap;

	ret->state = KACS_STOPPED;
	ret->entry = entry;
	entry_text(dev, ret->dev, sizeof(ret->dev));
	va_start(ap, fmt);
	vsnprintf(ret->why, sizeof(ret->why), fmt, ap);
	va_end(ap);
}

void kacs_evaluate(const char *param, bool config, bool buggy, unsigned skip,
		   const struct pci_inventory *inv, const struct pci_dev_info *d,
		   struct kacs_eval *ret)
{
	uint16_t mask = config ? 0 : ACS_REDIR_BITS, flags = 0;
	const char *p = param;
	unsigned n = 0;

	*ret = (struct kacs_eval){ .state = KACS_NOT_NAMED };
	while (p && *p) {
		const char *entry = p, *dev;
		int r;

		n++;
		/* Before the fix the flags were read only while no entry had set one. */
		if (config && (!buggy || mask == 0)) {
			const char *at = strchr(p, '@');
			char bad;

			if (!at) {
				stopped(ret, n, entry, "no '@': the flags are missing");
				return;
			}
			mask = flags = 0;
			if (acs_flags_parse(p, at - p, &mask, &flags, &bad) < 0) {
				if ((unsigned char)bad >= 0x20 && (unsigned char)bad < 0x7f) {
					stopped(ret, n, entry, "'%c' is not a flag (0, 1, x)", bad);
					return;
				}
				{
					stopped(ret, n, entry,
						"byte 0x%02x is not a flag (0, 1, x)",
						(unsigned char)bad);
					return;
				}
			}
			p = at + 1;
		}
		if (mask & ~ACS_POLICY_BITS) {
			stopped(ret, n, entry, "more than 7 flags");
			return;
		}
		/* Not after the entry's '@': the buggy parse reads a later entry whole as a device.
		 */
		dev = p;
		r = kacs_dev_str_match(inv, d, p, &p);
		if (r < 0 && r != -ENODATA) {
			stopped(ret, n, entry, "the kernel cannot parse the device");
			return;
		}
		if (n > skip && r != 0) {
			ret->state = r == 1 ? KACS_MATCHED : KACS_UNDECIDED;
			ret->entry = n;
			ret->mask = mask;
			ret->flags = flags;
			entry_text(dev, ret->dev, sizeof(ret->dev));
			return;
		}
		if (*p != ';' && *p != ',') {
			if (*p) {
				ret->state = KACS_ENDED;
				ret->entry = n;
				entry_text(entry, ret->dev, sizeof(ret->dev));
				snprintf(ret->why, sizeof(ret->why),
					 "the kernel stops reading at text after the device");
			}
			return;
		}
		p++;
	}
}

static int keep_last(char **slot, const char *value)
{
	char *copy = strdup(value);

	if (!copy)
		return -ENOMEM;
	free(*slot);
	*slot = copy;
	return 0;
}

/* pci_setup(): every pci= word, options split on ',' (so no value holds one), in order. */
int kacs_params_each(const struct cmdline *cmd, int (*fn)(void *ud, const char *opt), void *ud)
{
	int r = 0;

	for (size_t i = 0; i < cmd->n && r >= 0; i++) {
		_cleanup_(freep) char *copy = NULL;
		char *opt, *next;

		if (!streq(cmd->params[i].key, "pci") || !cmd->params[i].value)
			continue;
		copy = strdup(cmd->params[i].value);
		if (!copy)
			return -ENOMEM;
		for (opt = copy; opt && r >= 0; opt = next) {
			next = strchr(opt, ',');
			if (next)
				*next++ = '\0';
			r = fn(ud, opt);
		}
	}
	return r;
}

static int keep_opt(void *ud, const char *opt)
{
	struct kacs_params *k = ud;

	if (strneq(opt, "disable_acs_redir=", 18))
		return keep_last(&k->disable_acs_redir, opt + 18);
	if (strneq(opt, "config_acs=", 11))
		return keep_last(&k->config_acs, opt + 11);
	return 0;
}

/* The last of each wins. */
int kacs_params_get(const struct cmdline *cmd, struct kacs_params *ret)
{
	struct kacs_params k = {};
	int r = kacs_params_each(cmd, keep_opt, &k);

	if (r < 0) {
		kacs_params_done(&k);
		return r;
	}
	*ret = k;
	return 0;
}

void kacs_params_done(struct kacs_params *p)
{
	free(p->config_acs);
	free(p->disable_acs_redir);
	*p = (struct kacs_params){};
}

/*
 * Ports the kernel argument names: those with an ACS capability, but not one whose write
 * is refused (vfio-pci below it, no AllowVFIO=yes): at boot it would relax them all the same.
 */
static const struct pci_dev_info *cmdline_port(const struct acs_target *t,
					       const struct pci_inventory *inv)
{
	const struct pci_dev_info *d = t->refused ? NULL : pci_inventory_find(inv, t->addr);

	return d && d->has_acs ? d : NULL;
}

/*
 * Without root we cannot tell which selected ports have ACS: no argument is better than a
 * wrong one. -EACCES: only 64 bytes readable (pci_limited_cause() says why); -ENOMEDIUM:
 * a port without extended config space (pci_no_ext_text()); -EBADMSG: one whose extended
 * capability list cannot be read to its end (pci_ext_broken_text()).
 */
static int any_unreadable(const struct plan *p, const struct pci_inventory *inv)
{
	int r = 0;

	for (size_t i = 0; i < p->n_targets; i++) {
		const struct pci_dev_info *d = pci_inventory_find(inv, p->targets[i].addr);

		if (d && d->cfg == PCI_CFG_LIMITED)
			return -EACCES;
		if (d && d->cfg == PCI_CFG_NO_EXT)
			r = -ENOMEDIUM;
		if (d && d->cfg == PCI_CFG_EXT_BROKEN && !r)
			r = -EBADMSG;
	}
	return r;
}

bool acs_cmdline_unreadable(int err)
{
	return err == -EACCES || err == -ENOMEDIUM || err == -EBADMSG;
}

const struct pci_limited_text *acs_cmdline_unreadable_text(int err)
{
	if (err == -ENOMEDIUM)
		return pci_no_ext_text();
	if (err == -EBADMSG)
		return pci_ext_broken_text();
	return pci_limited_text(pci_limited_cause());
}

static int format_arg(const struct plan *p, const struct pci_inventory *inv, bool redir, char **ret,
		      const struct acs_target **bad)
{
	_cleanup_(freep) char *buf = NULL;
	size_t size = 0, n = 0;
	FILE *f;

	int r = any_unreadable(p, inv);

	if (r < 0)
		return r;
	for (size_t i = 0; redir && i < p->n_targets; i++)
		if (cmdline_port(&p->targets[i], inv) && !acs_mask_is_redir(&p->targets[i].mask)) {
			if (bad)
				*bad = &p->targets[i];
			return -EDOM;
		}
	f = open_memstream(&buf, &size);
	if (!f)
		return -ENOMEM;
	fputs(redir ? "pci=disable_acs_redir=\"" : "pci=config_acs=\"", f);
	for (size_t i = 0; i < p->n_targets; i++) {
		const struct pci_dev_info *d = cmdline_port(&p->targets[i], inv);
		char mask[ACS_MASK_BITS + 1], path[256];

		if (!d || pci_dev_path(inv, d, path, sizeof(path)) < 0)
			continue;
		acs_mask_format(&p->targets[i].mask, mask);
		fprintf(f, "%s%s%s%s", n++ ? ";" : "", redir ? "" : mask, redir ? "" : "@", path);
	}
	fputc('"', f);
	if (fclose(f) != 0)
		return -ENOMEM;
	if (n == 0)
		return -ENODATA;
	*ret = TAKE_PTR(buf);
	return 0;
}

int acs_cmdline_format(const struct plan *p, const struct pci_inventory *inv, char **ret)
{
	return format_arg(p, inv, false, ret, NULL);
}

int acs_cmdline_format_redir(const struct plan *p, const struct pci_inventory *inv, char **ret,
			     const struct acs_target **bad)
{
	return format_arg(p, inv, true, ret, bad);
}

/* ---- acs.cmdline ---- */

struct port_view {
	const struct kacs_params *k;
	enum kernel_acs_param kind;
	const struct pci_inventory *inv;
	const struct pci_dev_info *d;
	const struct acs_mask *want;
};

static void eval_mask(const struct kacs_eval *e, struct acs_mask *m)
{
	*m = (struct acs_mask){ .clear = e->mask & ~e->flags & ACS_POLICY_BITS,
				.set = e->flags & e->mask & ACS_POLICY_BITS };
}

/*
 * The bits the kernel forces on the port at boot; false if that depends on
 * what hostprep cannot see. pci_enable_acs() runs disable_acs_redir first,
 * then config_acs. Fixed kernels compute each from the firmware's value, so
 * a config_acs entry replaces what disable_acs_redir did; before the fix a
 * '0' (and every disable_acs_redir clear) took the firmware's bit and
 * disable_acs_redir set every other bit.
 */
static bool port_boot_mask(const struct port_view *v, struct kacs_eval *cfg,
			   struct kacs_eval *redir, struct acs_mask *ret)
{
	bool buggy = v->kind == KERNEL_ACS_CONFIG_BUGGY;
	bool has_config = v->kind == KERNEL_ACS_CONFIG || buggy;

	kacs_evaluate(v->k->disable_acs_redir, false, buggy, 0, v->inv, v->d, redir);
	*cfg = (struct kacs_eval){ .state = KACS_NOT_NAMED };
	if (has_config)
		kacs_evaluate(v->k->config_acs, true, buggy, 0, v->inv, v->d, cfg);
	if (cfg->state == KACS_UNDECIDED ||
	    (redir->state == KACS_UNDECIDED && cfg->state != KACS_MATCHED))
		return false;
	*ret = (struct acs_mask){};
	if (!buggy) {
		if (cfg->state == KACS_MATCHED)
			eval_mask(cfg, ret);
		else if (redir->state == KACS_MATCHED)
			ret->clear = ACS_REDIR_BITS;
		return true;
	}
	if (redir->state == KACS_MATCHED)
		ret->set = ACS_POLICY_BITS & ~ACS_REDIR_BITS;
	if (cfg->state == KACS_MATCHED)
		ret->set = (ret->set & ~cfg->mask) | (cfg->flags & cfg->mask & ACS_POLICY_BITS);
	return true;
}

static const char *param_name(bool config)
{
	return config ? "pci=config_acs=" : "pci=disable_acs_redir=";
}

/* Why the port does not get the policy, from what decided it. */
static void port_reason(const struct port_view *v, const struct kacs_eval *cfg,
			const struct kacs_eval *redir, char *buf, size_t size)
{
	bool config = cfg->state == KACS_MATCHED || redir->state != KACS_MATCHED;
	const struct kacs_eval *e = config && v->kind != KERNEL_ACS_REDIR ? cfg : redir;
	const char *value = e == cfg ? v->k->config_acs : v->k->disable_acs_redir;
	char want[ACS_MASK_BITS + 1], got[ACS_MASK_BITS + 1];
	struct acs_mask m;
	struct kacs_eval later;

	config = e == cfg;
	if (!value) {
		snprintf(buf, size, "no %s on the command line", param_name(config));
		return;
	}
	if (value[0] == '"') {
		snprintf(
			buf, size,
			"quoted value passed verbatim: the kernel keeps the quotes and rejects the "
			"%s; remove the quotes for loaders that pass the line verbatim",
			config ? "flags" : "devices");
		return;
	}
	acs_mask_format(v->want, want);
	switch (e->state) {
	case KACS_NOT_NAMED:
		snprintf(buf, size, "not named by %s", param_name(config));
		return;
	case KACS_ENDED:
	case KACS_STOPPED:
		snprintf(buf, size, "%s entry #%u (%s): %s; the kernel reads no further",
			 param_name(config), e->entry, e->dev, e->why);
		return;
	case KACS_UNDECIDED:
		snprintf(
			buf, size,
			"%s entry #%u (%s) names it by subsystem IDs, which hostprep does not read",
			param_name(config), e->entry, e->dev);
		return;
	case KACS_MATCHED:
		break;
	}
	if (!config) {
		snprintf(buf, size, "pci=disable_acs_redir= entry #%u clears RR,CR,EC (x0x00xx)",
			 e->entry);
		return;
	}
	if (v->kind == KERNEL_ACS_CONFIG_BUGGY) {
		snprintf(buf, size,
			 "entry #%u (%s) names it, but this kernel takes its '0' flags "
			 "from the firmware",
			 e->entry, e->dev);
		return;
	}
	eval_mask(e, &m);
	acs_mask_format(&m, got);
	/* The first entry naming the device wins, even when a later one has the policy. */
	kacs_evaluate(value, true, v->kind == KERNEL_ACS_CONFIG_BUGGY, e->entry, v->inv, v->d,
		      &later);
	if (later.state == KACS_MATCHED) {
		struct acs_mask lm;

		eval_mask(&later, &lm);
		if (acs_mask_equal(&lm, v->want)) {
			snprintf(buf, size, "entry #%u for %s (%s) wins over entry #%u", e->entry,
				 e->dev, got, later.entry);
			return;
		}
	}
	snprintf(buf, size, "entry #%u (%s) sets %s", e->entry, e->dev, got);
}

/* "0000:15:01.0, 0000:16:01.0: why; 0000:37:01.0: why" with equal reasons grouped. */
struct reason {
	char *why;
	char *ports;	 /* "addr, addr, ..." */
	size_t len, cap; /* of ports: it grows by doubling, not by a copy per port */
};

struct reasons {
	struct reason *v;
	size_t n;
};

static int ports_append(struct reason *e, const char *addr)
{
	size_t k = strlen(addr), need = e->len + 2 + k + 1;

	if (need > e->cap) {
		size_t cap = e->cap * 2 > need ? e->cap * 2 : need;
		char *p = realloc(e->ports, cap);

		if (!p)
			return -ENOMEM;
		e->ports = p;
		e->cap = cap;
	}
	memcpy(e->ports + e->len, ", ", 2);
	memcpy(e->ports + e->len + 2, addr, k + 1);
	e->len += 2 + k;
	return 0;
}

static int reasons_add(struct reasons *r, const char *addr, const char *why)
{
	struct reason *v, *e;

	for (size_t i = 0; i < r->n; i++)
		if (streq(r->v[i].why, why))
			return ports_append(&r->v[i], addr);
	v = reallocarray(r->v, r->n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	r->v = v;
	e = &r->v[r->n];
	*e = (struct reason){ .why = strdup(why), .ports = strdup(addr) };
	if (!e->why || !e->ports) {
		free(e->why);
		free(e->ports);
		return -ENOMEM;
	}
	e->len = strlen(addr);
	e->cap = e->len + 1;
	r->n++;
	return 0;
}

static void reasons_done(struct reasons *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].why);
		free(r->v[i].ports);
	}
	free(r->v);
}

/* One reason for every port names no port. */
static char *reasons_join(const struct reasons *r, const char *prefix, bool all)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		return NULL;
	fputs(prefix, f);
	if (all && r->n == 1)
		fputs(r->v[0].why, f);
	for (size_t i = 0; !(all && r->n == 1) && i < r->n; i++)
		fprintf(f, "%s%s: %s", i ? "; " : "", r->v[i].ports, r->v[i].why);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int verdict_unreadable(struct results *rs, const char *expected, int err)
{
	const struct pci_limited_text *t = acs_cmdline_unreadable_text(err);

	return results_add(rs, &(const struct result_spec){
				       .verdict = VERDICT_UNKNOWN,
				       .check = "acs.cmdline",
				       .object = "host",
				       .expected = expected,
				       .actual = t->actual,
				       .remedy = t->remedy,
				       .action = ACTION_INSPECT,
			       });
}

/* Old kernels: say which boot-time form exists for this policy, if any. */
static int verdict_old_kernel(const struct plan *p, const struct pci_inventory *inv,
			      const char *osrelease, enum kernel_acs_param kind, char **arg,
			      struct results *rs)
{
	const struct acs_target *bad = NULL;
	char mask[ACS_MASK_BITS + 1];
	int r;

	if (kind == KERNEL_ACS_NONE)
		return results_addf(rs,
				    &(const struct result_spec){
					    .verdict = VERDICT_SKIP,
					    .check = "acs.cmdline",
					    .object = "host",
					    .expected = "ACS at boot",
					    .action = ACTION_NONE,
				    },
				    "kernel %s has neither pci=disable_acs_redir= (4.19) nor "
				    "pci=config_acs= (6.11): no boot-time form",
				    osrelease);
	r = acs_cmdline_format_redir(p, inv, arg, &bad);
	if (acs_cmdline_unreadable(r))
		return verdict_unreadable(rs, "pci=disable_acs_redir= at boot", r);
	if (r != -EDOM)
		return r;
	acs_mask_format(&bad->mask, mask);
	return results_addf(
		rs,
		&(const struct result_spec){
			.verdict = VERDICT_SKIP,
			.check = "acs.cmdline",
			.object = "host",
			.expected = "ACS at boot",
			.action = ACTION_NONE,
		},
		"kernel %s predates pci=config_acs= (6.11) and pci=disable_acs_redir= only clears "
		"RR,CR,EC (x0x00xx), but %s wants %s: no boot-time form for this policy",
		osrelease, bad->addr, mask);
}

static char *remedy_for(enum kernel_acs_param kind, const struct kacs_params *k, const char *arg)
{
	const char *v = kind == KERNEL_ACS_REDIR ? k->disable_acs_redir : k->config_acs;
	char *s = NULL;
	int r;

	if (kind == KERNEL_ACS_CONFIG_BUGGY)
		r = asprintf(&s,
			     "boot a kernel with the pci=config_acs fix (6.12.23, 6.13.11, "
			     "6.14.2, 6.15 or later), then add %s; until then hostprep apply "
			     "sets ACS after every boot",
			     arg);
	else if (v && v[0] == '"')
		r = asprintf(&s,
			     "your boot loader passes the line verbatim (systemd-boot, UKI): "
			     "give the argument without the quotes: %.*s%s",
			     (int)(strchr(arg, '"') - arg), arg, strchr(arg, '"') + 1);
	else
		r = asprintf(
			&s,
			"add %s to the kernel command line (in /etc/default/grub escape the "
			"quotes: the ';' must stay inside them; systemd-boot and UKIs pass the "
			"line verbatim: there without the quotes)",
			arg);
	if (r < 0)
		return NULL;
	/* Drop the closing quote of the unquoted form. */
	if (kind != KERNEL_ACS_CONFIG_BUGGY && v && v[0] == '"' && strlen(s) > 0 &&
	    s[strlen(s) - 1] == '"')
		s[strlen(s) - 1] = '\0';
	return s;
}

/* Equal once double quotes are taken out of both (GRUB's quoted form, the kernel's value). */
static bool unquoted_eq(const char *x, const char *y)
{
	for (;; x++, y++) {
		x += *x == '"';
		y += *y == '"';
		if (*x != *y)
			return false;
		if (!*x)
			return true;
	}
}

/* The running command line gives the option of arg ("pci=config_acs=VALUE") arg's value. */
static bool arg_on_cmdline(enum kernel_acs_param kind, const struct kacs_params *k, const char *arg)
{
	const char *v = kind == KERNEL_ACS_REDIR ? k->disable_acs_redir : k->config_acs;
	const char *eq = strchr(arg, '=');

	eq = eq ? strchr(eq + 1, '=') : NULL;
	return v && eq && unquoted_eq(v, eq + 1);
}

#define DROPPED_REMEDY                                                                         \
	"look at how the host booted (the boot loader's menu and saved entry, an edit at the " \
	"prompt, a '--' or a line too long before it in the entry); hostprep apply sets ACS "  \
	"after every boot until the kernel takes it"

static int not_taken(struct results *rs, const char *expected, enum verdict v, enum action a,
		     const char *remedy, const char *actual)
{
	return results_add(rs, &(const struct result_spec){
				       .verdict = v,
				       .check = "acs.cmdline",
				       .object = "host",
				       .expected = expected,
				       .actual = actual,
				       .remedy = remedy,
				       .action = a,
			       });
}

/* The verdict from what the entries hostprep wrote say (t->with > 0). */
static int verdict_took(const struct boot_took *t, const char *expected, struct results *rs)
{
	_cleanup_(freep) char *s = NULL;
	enum action a = ACTION_INSPECT;
	int r;

	if (t->since_boot)
		r = asprintf(&s,
			     "%s carries it, written after this boot began: the running "
			     "kernel was booted before",
			     t->carrier);
	else if (t->booted && t->booted_carries)
		r = asprintf(&s,
			     "present in the entry booted (%s) but not on the running "
			     "kernel's command line: the kernel dropped it",
			     t->booted);
	else if (t->booted) {
		a = ACTION_CONFIG;
		r = asprintf(&s,
			     "present in %s but not on the running kernel's command line: "
			     "the entry booted was another (%s, without it)",
			     t->carrier, t->booted);
	} else
		r = asprintf(&s,
			     "present in the entry (%s; %zu of %zu hostprep wrote) but not "
			     "on the running kernel's command line: the entry booted was "
			     "another, or the kernel dropped it",
			     t->carrier, t->with, t->n);
	if (r < 0)
		return -ENOMEM;
	if (t->since_boot)
		return not_taken(rs, expected, VERDICT_WARN, ACTION_REBOOT,
				 "reboot: the next boot takes it", s);
	return not_taken(rs, expected, VERDICT_FAIL, a,
			 a == ACTION_CONFIG ? "make an entry that carries it the default "
					      "(grubby --set-default, bootctl set-default) or "
					      "run hostprep acs cmdline --install again, then "
					      "reboot"
					    : DROPPED_REMEDY,
			 s);
}

/*
 * The entries hostprep wrote carry arg, the running command line does not: after the
 * reboot that is the kernel's or the boot loader's doing, not a missing argument.
 * 1 when it said so, 0 when the entries do not carry it (or nothing is recorded).
 */
static int verdict_not_taken(const struct sysroot *root, const struct cmdline *cmd, const char *arg,
			     const char *expected, struct results *rs)
{
	const struct cmdline_param *img = cmdline_find_last(cmd, "BOOT_IMAGE");
	_cleanup_(boot_took_done) struct boot_took t = {};
	int r;

	if (!root)
		return 0;
	r = acs_boot_took(root, img ? img->value : NULL, arg, &t);
	if (r == -ENOMEM)
		return r;
	/* entries or the record unreadable: acs.boot says so; the plain verdict stands */
	if (r < 0 || t.with == 0)
		return 0;
	r = verdict_took(&t, expected, rs);
	return r < 0 ? r : 1;
}

int acs_cmdline_for_kernel(const struct plan *p, const struct pci_inventory *inv,
			   const char *osrelease, char **ret)
{
	switch (kernel_acs_param_assumed(osrelease)) {
	case KERNEL_ACS_NONE:
		return -EDOM;
	case KERNEL_ACS_REDIR:
		return acs_cmdline_format_redir(p, inv, ret, NULL);
	default:
		return acs_cmdline_format(p, inv, ret);
	}
}

int acs_cmdline_verify(const struct plan *p, const struct pci_inventory *inv,
		       const struct cmdline *cmd, const char *osrelease, struct results *rs)
{
	return acs_cmdline_verify_at(NULL, p, inv, cmd, osrelease, rs);
}

int acs_cmdline_verify_at(const struct sysroot *root, const struct plan *p,
			  const struct pci_inventory *inv, const struct cmdline *cmd,
			  const char *osrelease, struct results *rs)
{
	enum kernel_acs_param kind = kernel_acs_param_assumed(osrelease);
	_cleanup_(freep) char *arg = NULL, *remedy = NULL, *actual = NULL;
	_cleanup_(kacs_params_done) struct kacs_params k = {};
	struct reasons why = {};
	const char *expected;
	size_t ports = 0, missing = 0, undecided = 0;
	char prefix[256];
	int r;

	if (!osrelease)
		osrelease = "(unknown)";
	r = acs_cmdline_format(p, inv, &arg);
	if (r == -ENODATA)
		return 0;
	if (r < 0 && !acs_cmdline_unreadable(r))
		return r;
	if (kind == KERNEL_ACS_NONE || kind == KERNEL_ACS_REDIR) {
		free(TAKE_PTR(arg));
		r = verdict_old_kernel(p, inv, osrelease, kind, &arg, rs);
		if (r != 0 || !arg)
			return r;
		expected = "pci=disable_acs_redir= at boot";
	} else {
		if (acs_cmdline_unreadable(r))
			return verdict_unreadable(rs, "pci=config_acs= at boot", r);
		expected = "pci=config_acs= at boot";
	}
	r = kacs_params_get(cmd, &k);
	for (size_t i = 0; i < p->n_targets && r >= 0; i++) {
		struct port_view v = {
			.k = &k, .kind = kind, .inv = inv, .want = &p->targets[i].mask
		};
		struct kacs_eval cfg, redir;
		struct acs_mask boot;
		char reason[320];

		v.d = cmdline_port(&p->targets[i], inv);
		if (!v.d)
			continue;
		ports++;
		if (!port_boot_mask(&v, &cfg, &redir, &boot)) {
			undecided++;
			port_reason(&v, &cfg, &redir, reason, sizeof(reason));
		} else if (acs_mask_equal(&boot, v.want))
			continue;
		else
			port_reason(&v, &cfg, &redir, reason, sizeof(reason));
		missing++;
		r = reasons_add(&why, v.d->addr, reason);
	}
	if (r >= 0 && why.n == 0)
		r = results_addf(rs,
				 &(const struct result_spec){
					 .verdict = VERDICT_PASS,
					 .check = "acs.cmdline",
					 .object = "host",
					 .expected = expected,
				 },
				 "the kernel applies the policy to all %zu ports at boot", ports);
	else if (r >= 0 && undecided < missing && !arg_on_cmdline(kind, &k, arg) &&
		 (r = verdict_not_taken(root, cmd, arg, expected, rs)) != 0)
		r = r < 0 ? r : 0;
	else if (r >= 0) {
		size_t off = 0;

		if (kind == KERNEL_ACS_CONFIG_BUGGY)
			off = snprintf(
				prefix, sizeof(prefix),
				"kernel %s may lack the 2025 pci=config_acs fix: it reads the "
				"flags of the first entry only and takes '0' flags from the "
				"firmware, so a list is only partly honoured; ",
				osrelease);
		snprintf(prefix + off, sizeof(prefix) - off, "%s for %zu of %zu ports: ",
			 undecided == missing ? "cannot tell" : "not applied", missing, ports);
		actual = reasons_join(&why, prefix, missing == ports);
		remedy = remedy_for(kind, &k, arg);
		if (!actual || !remedy)
			r = -ENOMEM;
		else
			r = not_taken(rs, expected, VERDICT_WARN, ACTION_CONFIG, remedy, actual);
	}
	reasons_done(&why);
	return r;
}

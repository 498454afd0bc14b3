// SPDX-License-Identifier: GPL-2.0-or-later
#include "acs-verify.h"
#include "log.h"

/* "x0x00xx: RR,CR,EC off" */
static void describe_mask(const struct acs_mask *m, char *buf, size_t size)
{
	char text[ACS_MASK_BITS + 1], off[64], on[64];
	size_t n;

	acs_mask_format(m, text);
	acs_ctrl_describe(m->clear, off, sizeof(off));
	acs_ctrl_describe(m->set, on, sizeof(on));
	n = snprintf(buf, size, "%s:", text);
	if (m->clear && n < size)
		n += snprintf(buf + n, size - n, " %s off", off);
	if (m->set && n < size)
		n += snprintf(buf + n, size - n, "%s %s on", m->clear ? ";" : "", on);
	if (!m->clear && !m->set && n < size)
		snprintf(buf + n, size - n, " leave all");
}

/* Name the boot-time form only where the kernel understands it (6.11+). */
static const char *drift_remedy(bool apply_enabled, bool boot_form)
{
	if (apply_enabled && boot_form)
		return "hostprep apply (hotplug, reset, resume and driver bind rewrite ACS; "
		       "'hostprep acs cmdline' gives the boot-time form)";
	if (apply_enabled)
		return "hostprep apply (hotplug, reset, resume and driver bind rewrite ACS)";
	if (boot_form)
		return "set Apply=yes in [Host] (e.g. "
		       "/etc/hostprep/hostprep.conf.d/50-apply.conf), "
		       "then hostprep apply; or boot with the argument from hostprep acs cmdline";
	return "set Apply=yes in [Host] (e.g. /etc/hostprep/hostprep.conf.d/50-apply.conf), then "
	       "hostprep apply";
}

const struct acs_limited_text *acs_limited_text(enum pci_limited_cause c)
{
	static const struct acs_limited_text texts[] = {
		[PCI_LIMITED_NOT_ROOT] = {
			.why = "needs CAP_SYS_ADMIN: not root",
			.actual = "cannot tell: config space past 64 bytes needs root (CAP_SYS_ADMIN)",
			.remedy = "run as root",
		},
		[PCI_LIMITED_NO_SYS_ADMIN] = {
			.why = "needs CAP_SYS_ADMIN: uid 0 without it, a container?",
			.actual = "cannot tell: config space past 64 bytes needs CAP_SYS_ADMIN: uid 0 "
				  "but CAP_SYS_ADMIN is not in the effective capability set (a "
				  "container without SYS_ADMIN?)",
			.remedy = "run with CAP_SYS_ADMIN (container: --cap-add SYS_ADMIN; systemd: "
				  "keep it in CapabilityBoundingSet=)",
		},
		[PCI_LIMITED_DEVICE] = {
			.why = "the kernel exposes only 64 bytes",
			.actual = "cannot tell: the kernel exposes only 64 bytes of config space, even "
				  "with CAP_SYS_ADMIN (a conventional PCI device or a broken device)",
			.remedy = "check the port with lspci -vv and dmesg: a PCIe port has 4096 bytes "
				  "of config space",
		},
	};

	return &texts[c < ARRAY_SIZE(texts) ? c : PCI_LIMITED_NOT_ROOT];
}

/* A selected port that does not answer or vanished: FAIL, never skip, never "no ACS". */
static int verify_broken(const struct pci_dev_info *d, const char *expected, struct results *rs)
{
	_cleanup_(freep) char *remedy = NULL;

	if (asprintf(&remedy,
		     "check dmesg for AER/DPC and hotplug messages about %s and 'lspci -vv -s %s'; "
		     "once it answers again (rescan or reboot), run hostprep check",
		     d->addr, d->addr) < 0)
		return -ENOMEM;
	if (d->state == PCI_DEV_DEAD)
		return results_add(rs, VERDICT_FAIL, "acs", d->addr, expected,
				   "device not responding: config space reads 0xffff (surprise "
				   "removal, link down or powered off)",
				   remedy);
	return results_addf(rs, VERDICT_FAIL, "acs", d->addr, expected, remedy,
			    "device gone: listed in sysfs but its config space cannot be read (%s)",
			    strerror(-d->err));
}

static int verify_one(const struct acs_target *t, const struct pci_inventory *inv,
		      bool apply_enabled, bool boot_form, enum pci_limited_cause why,
		      struct results *rs)
{
	const struct pci_dev_info *d = pci_inventory_find(inv, t->addr);
	char expected[96], bits[64];

	describe_mask(&t->mask, expected, sizeof(expected));
	if (!d)
		return results_add(rs, VERDICT_FAIL, "acs", t->addr, expected,
				   "device gone (removed or renumbered since the plan)", NULL);
	if (d->state != PCI_DEV_OK)
		return verify_broken(d, expected, rs);
	if (d->cfg == PCI_CFG_LIMITED)
		return results_add(rs, VERDICT_UNKNOWN, "acs", t->addr, expected,
				   acs_limited_text(why)->actual, acs_limited_text(why)->remedy);
	if (!d->has_acs)
		return results_add(rs, VERDICT_SKIP, "acs", t->addr, expected,
				   "no ACS capability on this port: nothing to change", NULL);
	acs_ctrl_describe(d->acs_ctrl, bits, sizeof(bits));
	if (acs_ctrl_matches(d->acs_ctrl, d->acs_cap, &t->mask))
		return results_addf(rs, VERDICT_PASS, "acs", t->addr, expected, NULL, "0x%04x (%s)",
				    d->acs_ctrl, bits);
	return results_addf(rs, VERDICT_FAIL, "acs", t->addr, expected,
			    drift_remedy(apply_enabled, boot_form), "0x%04x (%s)", d->acs_ctrl,
			    bits);
}

/* A rule that matches nothing is usually a typo or the wrong host: say so. */
static int verify_idle(const struct plan *p, struct results *rs)
{
	for (size_t i = 0; i < p->n_idle; i++) {
		char object[64];
		int r;

		snprintf(object, sizeof(object), "rule %s", p->idle[i]->name);
		r = results_add(rs, VERDICT_SKIP, "acs", object, "selects ports",
				"selects no port on this host", NULL);
		if (r < 0)
			return r;
	}
	return 0;
}

int acs_verify(const struct plan *p, const struct pci_inventory *inv, bool apply_enabled,
	       const char *osrelease, struct results *rs)
{
	bool boot_form = kernel_has_config_acs(osrelease);
	enum pci_limited_cause why = pci_limited_cause();
	int r = verify_idle(p, rs);

	for (size_t i = 0; i < p->n_targets && r >= 0; i++)
		r = verify_one(&p->targets[i], inv, apply_enabled, boot_form, why, rs);
	return r;
}

/* Ports the kernel argument names: those with an ACS capability. */
static const struct pci_dev_info *cmdline_port(const struct acs_target *t,
					       const struct pci_inventory *inv)
{
	const struct pci_dev_info *d = pci_inventory_find(inv, t->addr);

	return d && d->has_acs ? d : NULL;
}

/* Without root we cannot tell which selected ports have ACS: no argument is better than a wrong
 * one. */
static bool any_unreadable(const struct plan *p, const struct pci_inventory *inv)
{
	for (size_t i = 0; i < p->n_targets; i++) {
		const struct pci_dev_info *d = pci_inventory_find(inv, p->targets[i].addr);

		if (d && d->cfg == PCI_CFG_LIMITED)
			return true;
	}
	return false;
}

int acs_cmdline_format(const struct plan *p, const struct pci_inventory *inv, char **ret)
{
	_cleanup_(freep) char *buf = NULL;
	size_t size = 0, n = 0;
	FILE *f;

	if (any_unreadable(p, inv))
		return -EACCES;
	f = open_memstream(&buf, &size);
	if (!f)
		return -ENOMEM;
	fputs("pci=config_acs=\"", f);
	for (size_t i = 0; i < p->n_targets; i++) {
		const struct pci_dev_info *d = cmdline_port(&p->targets[i], inv);
		char mask[ACS_MASK_BITS + 1], path[256];

		if (!d || pci_dev_path(inv, d, path, sizeof(path)) < 0)
			continue;
		acs_mask_format(&p->targets[i].mask, mask);
		fprintf(f, "%s%s@%s", n++ ? ";" : "", mask, path);
	}
	fputc('"', f);
	if (fclose(f) != 0)
		return -ENOMEM;
	if (n == 0)
		return -ENODATA;
	*ret = TAKE_PTR(buf);
	return 0;
}

/* Is "<mask>@<dev>" among the config_acs= entries of any pci= word? */
static bool entry_matches(const char *entries, const char *want_mask, const char *addr,
			  const char *path)
{
	_cleanup_(freep) char *copy = strdup(entries);
	char *save = NULL;

	if (!copy)
		return false;
	for (char *e = strtok_r(copy, ";", &save); e; e = strtok_r(NULL, ";", &save)) {
		char *at = strchr(e, '@');

		if (!at || (size_t)(at - e) != strlen(want_mask) || !strneq(e, want_mask, at - e))
			continue;
		at++;
		/* The kernel accepts the domain-less form for domain 0. */
		if (streq(at, addr) || streq(at, path) ||
		    (strneq(addr, "0000:", 5) && streq(at, addr + 5)) ||
		    (strneq(path, "0000:", 5) && streq(at, path + 5)))
			return true;
	}
	return false;
}

/*
 * The kernel keeps only the last config_acs= it sees (pci_setup() just
 * re-points config_acs_param), across all pci= words and their
 * comma-separated options. Returns a copy of its value, NULL if none.
 */
static char *last_config_acs(const struct cmdline *cmd)
{
	char *last = NULL;

	for (size_t i = 0; i < cmd->n; i++) {
		const char *v = cmd->params[i].value;
		_cleanup_(freep) char *copy = NULL;
		char *save = NULL;

		if (!streq(cmd->params[i].key, "pci") || !v)
			continue;
		copy = strdup(v);
		if (!copy)
			break;
		for (char *o = strtok_r(copy, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
			if (!strneq(o, "config_acs=", 11))
				continue;
			free(last);
			last = strdup(o + 11);
		}
	}
	return last;
}

int acs_cmdline_verify(const struct plan *p, const struct pci_inventory *inv,
		       const struct cmdline *cmd, const char *osrelease, struct results *rs)
{
	_cleanup_(freep) char *arg = NULL, *remedy = NULL, *given = NULL;
	size_t missing = 0, ports = 0;
	int r;

	r = acs_cmdline_format(p, inv, &arg);
	if (r == -ENODATA)
		return 0;
	if (r < 0 && r != -EACCES)
		return r;
	/* An older kernel ignores the argument, present or not. */
	if (!kernel_has_config_acs(osrelease))
		return results_addf(
			rs, VERDICT_SKIP, "acs.cmdline", "host", "pci=config_acs= at boot", NULL,
			"kernel %s predates pci=config_acs (6.11): the runtime write at "
			"every boot is the only way",
			osrelease);
	if (r == -EACCES)
		return results_add(rs, VERDICT_UNKNOWN, "acs.cmdline", "host",
				   "pci=config_acs= at boot",
				   acs_limited_text(pci_limited_cause())->actual,
				   acs_limited_text(pci_limited_cause())->remedy);
	given = last_config_acs(cmd);
	for (size_t i = 0; i < p->n_targets; i++) {
		const struct pci_dev_info *d = cmdline_port(&p->targets[i], inv);
		char mask[ACS_MASK_BITS + 1], path[256];

		if (!d || pci_dev_path(inv, d, path, sizeof(path)) < 0)
			continue;
		ports++;
		acs_mask_format(&p->targets[i].mask, mask);
		missing += !given || !entry_matches(given, mask, d->addr, path);
	}
	if (missing == 0)
		return results_addf(rs, VERDICT_PASS, "acs.cmdline", "host",
				    "pci=config_acs= at boot", NULL, "present for all %zu ports",
				    ports);
	if (asprintf(&remedy,
		     "add %s to the kernel command line (in /etc/default/grub escape the "
		     "quotes: the ';' must stay inside them)",
		     arg) < 0)
		return -ENOMEM;
	return results_addf(
		rs, VERDICT_WARN, "acs.cmdline", "host", "pci=config_acs= at boot", remedy,
		"missing for %zu of %zu ports: a hotplug, reset or resume undoes the runtime "
		"write until the next apply",
		missing, ports);
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <strings.h>

#include "core/fileio.h"
#include "iommu/iommu.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "core/string-table.h"

static const char *const group_type_names[_IOMMU_GROUP_TYPE_MAX] = {
	[IOMMU_GROUP_IDENTITY] = "identity", [IOMMU_GROUP_DMA] = "DMA",
	[IOMMU_GROUP_DMA_FQ] = "DMA-FQ",     [IOMMU_GROUP_UNMANAGED] = "unmanaged",
	[IOMMU_GROUP_BLOCKED] = "blocked",   [IOMMU_GROUP_OTHER] = "other",
};

static const char *const iommu_mode_table[] = {
	[IOMMU_MODE_OFF] = "off",
	[IOMMU_MODE_PASSTHROUGH] = "passthrough",
	[IOMMU_MODE_TRANSLATED] = "translated",
	[IOMMU_MODE_MIXED] = "mixed",
	[IOMMU_MODE_UNKNOWN] = "unknown",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(iommu_mode, enum iommu_mode);

static enum iommu_group_type group_type_from_string(const char *s)
{
	for (int t = 0; t < IOMMU_GROUP_OTHER; t++)
		if (streq(s, group_type_names[t]))
			return t;
	return IOMMU_GROUP_OTHER;
}

static int cmp_str(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

static int scan_units(const struct sysroot *root, struct iommu_state *s)
{
	_cleanup_(closedirp) DIR *d = NULL;
	struct dirent *de;
	int r = sysroot_opendir(root, SYSROOT_SYS, &d, "class/iommu");

	if (r < 0)
		return r == -ENOENT ? 0 : r;
	while ((de = readdir(d))) {
		char **units;

		if (de->d_name[0] == '.')
			continue;
		if (s->n_units >= IOMMU_MAX_UNITS)
			break;
		units = reallocarray(s->units, s->n_units + 2, sizeof(char *));
		if (!units)
			return -ENOMEM;
		s->units = units;
		s->units[s->n_units] = strdup(de->d_name);
		if (!s->units[s->n_units])
			return -ENOMEM;
		s->units[++s->n_units] = NULL;
	}
	if (s->n_units)
		qsort(s->units, s->n_units, sizeof(char *), cmp_str);
	return 0;
}

static int cmp_group(const void *a, const void *b)
{
	return strverscmp(((const struct iommu_group *)a)->name,
			  ((const struct iommu_group *)b)->name);
}

static void group_done(struct iommu_group *g)
{
	free(g->name);
	strv_free(g->devices);
	strv_free(g->drivers);
}

/* The driver bound to a group member ("" when none), from devices/<bdf>/driver. */
static char *member_driver(const struct sysroot *root, int devfd, const char *name)
{
	_cleanup_(freep) char *link = NULL;
	char target[PATH_MAX];

	if (asprintf(&link, "%s/driver", name) < 0)
		return NULL;
	if (sysroot_readlink_at(root, devfd, link, target, sizeof(target)) < 0)
		return strdup("");
	return strdup(strrchr(target, '/') ? strrchr(target, '/') + 1 : target);
}

static int cmp_str_plain(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* <group>/devices/ below the groups' directory: names sorted, then each one's driver. */
static int scan_members(const struct sysroot *root, int groups_fd, struct iommu_group *g)
{
	_cleanup_(freep) char *devdir = NULL;
	_cleanup_(closedirp) DIR *d = NULL;
	struct dirent *de;
	size_t n = 0;

	if (asprintf(&devdir, "%s/devices", g->name) < 0)
		return -ENOMEM;
	g->devices = calloc(IOMMU_MAX_GROUP_DEVS + 1, sizeof(char *));
	g->drivers = calloc(IOMMU_MAX_GROUP_DEVS + 1, sizeof(char *));
	if (!g->devices || !g->drivers)
		return -ENOMEM;
	if (sysroot_opendir_at(root, groups_fd, devdir, &d) < 0)
		return 0; /* a group without members says nothing more */
	while ((de = readdir(d)) && n < IOMMU_MAX_GROUP_DEVS) {
		if (de->d_name[0] == '.')
			continue;
		g->devices[n] = strdup(de->d_name);
		if (!g->devices[n++])
			return -ENOMEM;
	}
	qsort(g->devices, n, sizeof(char *), cmp_str_plain);
	for (size_t i = 0; i < n; i++) {
		g->drivers[i] = member_driver(root, dirfd(d), g->devices[i]);
		if (!g->drivers[i])
			return -ENOMEM;
	}
	g->n_devices = n;
	return 0;
}

static int add_group(struct iommu_state *s, const char *name, enum iommu_group_type type)
{
	struct iommu_group *grown;

	if (s->n_group >= IOMMU_MAX_GROUP_DETAIL)
		return 0;
	grown = reallocarray(s->group, s->n_group + 1, sizeof(*s->group));
	if (!grown)
		return -ENOMEM;
	s->group = grown;
	s->group[s->n_group] = (struct iommu_group){ .name = strdup(name), .type = type };
	if (!s->group[s->n_group++].name)
		return -ENOMEM;
	return 0;
}

/* Members and drivers of every group, for a remedy that names them. */
static int scan_all_members(const struct sysroot *root, struct iommu_state *s)
{
	_cleanup_(closep) int fd =
		sysroot_openat(root, SYSROOT_SYS, O_RDONLY | O_DIRECTORY, "kernel/iommu_groups");

	for (size_t i = 0; fd >= 0 && i < s->n_group; i++) {
		int r = s->group[i].devices ? 0 : scan_members(root, fd, &s->group[i]);

		if (r < 0)
			return r;
	}
	return 0;
}

static int scan_groups(const struct sysroot *root, bool typed, struct iommu_state *s)
{
	_cleanup_(closedirp) DIR *d = NULL;
	struct dirent *de;
	int r;

	s->groups_dir = sysroot_path(root, SYSROOT_SYS, "kernel/iommu_groups");
	if (!s->groups_dir)
		return -ENOMEM;
	s->untyped = !typed;
	r = sysroot_opendir(root, SYSROOT_SYS, &d, "kernel/iommu_groups");
	if (r < 0)
		return r == -ENOENT ? 0 : r;
	while ((de = readdir(d))) {
		_cleanup_(freep) char *type = NULL, *rel = NULL;
		enum iommu_group_type t;

		if (de->d_name[0] == '.')
			continue;
		s->n_groups++;
		if (!typed)
			continue;
		if (asprintf(&rel, "%s/type", de->d_name) < 0)
			return -ENOMEM;
		/* "type" appeared in 5.11; without it the group is unclassified. */
		t = read_one_line_at(root, dirfd(d), rel, &type) < 0 ? IOMMU_GROUP_OTHER
								     : group_type_from_string(type);
		s->groups[t]++;
		r = add_group(s, de->d_name, t);
		if (r < 0)
			return r;
	}
	if (s->n_group)
		qsort(s->group, s->n_group, sizeof(*s->group), cmp_group);
	return 0;
}

/* A GPU or display controller, a processing accelerator, a NIC, an InfiniBand HCA. */
static bool class_matters(unsigned long cls)
{
	return cls >> 16 == 0x03 || cls >> 16 == 0x12 || cls >> 16 == 0x02 || cls >> 8 == 0x0c06;
}

static bool member_matters(const struct sysroot *root, int groups_fd, const struct iommu_group *g,
			   const char *dev)
{
	_cleanup_(freep) char *rel = NULL, *line = NULL;

	if (asprintf(&rel, "%s/devices/%s/class", g->name, dev) < 0)
		return true; /* cannot tell: do not let it pass */
	if (read_one_line_at(root, groups_fd, rel, &line) < 0)
		return true;
	return class_matters(strtoul(line, NULL, 16));
}

static bool type_is_opaque(enum iommu_group_type t)
{
	return t == IOMMU_GROUP_UNMANAGED || t == IOMMU_GROUP_BLOCKED || t == IOMMU_GROUP_OTHER;
}

/* The members of the groups whose type says nothing: does a device that matters sit there? */
static int scan_opaque(const struct sysroot *root, struct iommu_state *s)
{
	_cleanup_(closep) int fd =
		sysroot_openat(root, SYSROOT_SYS, O_RDONLY | O_DIRECTORY, "kernel/iommu_groups");

	for (size_t i = 0; fd >= 0 && i < s->n_group; i++) {
		struct iommu_group *g = &s->group[i];
		int r;

		if (!type_is_opaque(g->type))
			continue;
		r = scan_members(root, fd, g);
		if (r < 0)
			return r;
		for (size_t k = 0; k < g->n_devices && !g->matters; k++)
			g->matters = member_matters(root, fd, g, g->devices[k]);
		s->n_opaque_matter += g->matters;
	}
	return 0;
}

static bool mode_satisfies(enum iommu_mode m, enum iommu_expect e);

int iommu_scan(const struct sysroot *root, enum iommu_expect expect, struct iommu_state *ret)
{
	struct iommu_state s = {};
	int r;

	r = scan_units(root, &s);
	if (r >= 0)
		r = scan_groups(root, expect != IOMMU_EXPECT_ANY, &s);
	if (r >= 0 && expect != IOMMU_EXPECT_ANY && expect != IOMMU_EXPECT_OFF &&
	    s.groups[IOMMU_GROUP_UNMANAGED] + s.groups[IOMMU_GROUP_BLOCKED] +
			    s.groups[IOMMU_GROUP_OTHER] <
		    s.n_groups)
		r = scan_opaque(root, &s);
	if (r >= 0 && expect != IOMMU_EXPECT_ANY && !mode_satisfies(iommu_mode(&s), expect))
		r = scan_all_members(root, &s);
	if (r < 0) {
		iommu_state_done(&s);
		return r;
	}
	*ret = s;
	return 0;
}

void iommu_state_done(struct iommu_state *s)
{
	strv_free(s->units);
	for (size_t i = 0; i < s->n_group; i++)
		group_done(&s->group[i]);
	free(s->group);
	free(s->groups_dir);
	*s = (struct iommu_state){};
}

enum iommu_mode iommu_mode(const struct iommu_state *s)
{
	size_t translated = s->groups[IOMMU_GROUP_DMA] + s->groups[IOMMU_GROUP_DMA_FQ];
	size_t identity = s->groups[IOMMU_GROUP_IDENTITY];

	if (s->n_units == 0 && s->n_groups == 0)
		return IOMMU_MODE_OFF;
	if (translated && identity)
		return IOMMU_MODE_MIXED;
	if (s->n_opaque_matter)
		return IOMMU_MODE_UNKNOWN; /* the rest is partial evidence */
	if (translated)
		return IOMMU_MODE_TRANSLATED;
	if (identity)
		return IOMMU_MODE_PASSTHROUGH;
	return IOMMU_MODE_UNKNOWN;
}

static const char *n_or(const char *s, const char *fallback)
{
	return s[0] ? s : fallback;
}

enum iommu_vendor { VENDOR_NONE, VENDOR_INTEL, VENDOR_AMD, VENDOR_ARM, VENDOR_OTHER };

static enum iommu_vendor iommu_vendor(const struct iommu_state *s)
{
	if (s->n_units == 0)
		return VENDOR_NONE;
	if (strneq(s->units[0], "dmar", 4))
		return VENDOR_INTEL;
	if (strneq(s->units[0], "ivhd", 4))
		return VENDOR_AMD;
	if (strneq(s->units[0], "smmu", 4))
		return VENDOR_ARM;
	return VENDOR_OTHER;
}

/* Whether the kernel reads x86's iommu= (off, pt, nopt): not on arm64's SMMU. */
static bool iommu_x86(const struct iommu_state *s)
{
	return iommu_vendor(s) != VENDOR_ARM;
}

/* The IOMMU-related words on the command line, "no IOMMU options" if there are none. */
static void cmdline_iommu_words(const struct cmdline *cmd, char *buf, size_t size)
{
	static const char *const keys[] = { "intel_iommu", "amd_iommu", "iommu",
					    "iommu.passthrough", "iommu.strict" };
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const struct cmdline_param *p = cmdline_find_last(cmd, keys[i]);

		if (p && n < size)
			n += snprintf(buf + n, size - n, "%s%s=%s", n ? " " : "", p->key,
				      strempty(p->value));
	}
	if (n == 0)
		snprintf(buf, size, "no IOMMU options");
}

static void describe(const struct iommu_state *s, const struct cmdline *cmd, char *buf, size_t size)
{
	char units[128] = "", groups[160] = "", words[160];
	size_t n = 0;

	for (size_t i = 0; i < s->n_units && n < sizeof(units); i++)
		n += snprintf(units + n, sizeof(units) - n, "%s%s", i ? "," : "", s->units[i]);
	n = 0;
	for (int t = 0; t < _IOMMU_GROUP_TYPE_MAX && n < sizeof(groups); t++)
		if (s->groups[t])
			n += snprintf(groups + n, sizeof(groups) - n, "%s%zu %s", n ? ", " : "",
				      s->groups[t], group_type_names[t]);
	cmdline_iommu_words(cmd, words, sizeof(words));
	if (s->n_units == 0 && s->n_groups == 0)
		snprintf(buf, size, "off (no IOMMU unit, no groups; cmdline: %s)", words);
	else if (s->untyped)
		snprintf(buf, size,
			 "on (units: %s; groups: %zu, type not read for Expect=any; "
			 "cmdline: %s)",
			 n_or(units, "none"), s->n_groups, words);
	else
		snprintf(buf, size, "%s (units: %s; groups: %s; cmdline: %s)",
			 iommu_mode_to_string(iommu_mode(s)), n_or(units, "none"),
			 s->n_groups ? groups : "none", words);
}

/* Is value one of the comma-separated options of the last key=? ("on,sm_off" has no "off") */
static bool cmdline_has(const struct cmdline *cmd, const char *key, const char *value)
{
	const struct cmdline_param *p = cmdline_find_last(cmd, key);
	size_t n = strlen(value);

	if (!p || !p->value)
		return false;
	for (const char *o = p->value; o; o = strchr(o, ',') ? strchr(o, ',') + 1 : NULL)
		if (strneq(o, value, n) && (o[n] == ',' || o[n] == '\0'))
			return true;
	return false;
}

/* Is value an option of any key= on the line (every one of them would have to go)? */
static bool cmdline_has_anywhere(const struct cmdline *cmd, const char *key, const char *value)
{
	size_t n = strlen(value);

	for (size_t i = 0; i < cmd->n; i++) {
		const struct cmdline_param *p = &cmd->params[i];

		if (!p->value || !streq(p->key, key))
			continue;
		for (const char *o = p->value; o; o = strchr(o, ',') ? strchr(o, ',') + 1 : NULL)
			if (strneq(o, value, n) && (o[n] == ',' || o[n] == '\0'))
				return true;
	}
	return false;
}

static const char *const off_switches[][2] = {
	{ "intel_iommu", "off" },
	{ "amd_iommu", "off" },
	{ "iommu", "off" },
};

enum pt_request { PT_DEFAULT, PT_ON, PT_OFF };

/* iommu.passthrough= is a kstrtobool; anything else leaves the default. */
static enum pt_request passthrough_bool(const char *v)
{
	if (!v || !v[0]) /* kstrtobool refuses "" */
		return PT_DEFAULT;
	if (strchr("1yY", v[0]) || strcasecmp(v, "on") == 0)
		return PT_ON;
	if (strchr("0nN", v[0]) || strcasecmp(v, "off") == 0)
		return PT_OFF;
	return PT_DEFAULT;
}

/*
 * What one word asks of the default domain. iommu=pt|nopt is x86's (arch/x86/kernel/
 * pci-dma.c; arm64 has no iommu= at all); iommu.passthrough= is every architecture's.
 */
static enum pt_request word_request(const struct cmdline_param *p, bool x86)
{
	enum pt_request req = PT_DEFAULT;

	if (!p->value)
		return PT_DEFAULT;
	if (streq(p->key, "iommu.passthrough"))
		return passthrough_bool(p->value);
	if (!x86 || !streq(p->key, "iommu"))
		return PT_DEFAULT;
	for (const char *o = p->value; o; o = strchr(o, ',') ? strchr(o, ',') + 1 : NULL) {
		if (strneq(o, "pt", 2))
			req = PT_ON;
		else if (strneq(o, "nopt", 4))
			req = PT_OFF;
	}
	return req;
}

/* iommu=pt|nopt and iommu.passthrough= set the same kernel variable: the last word wins. */
static enum pt_request pt_request(const struct cmdline *cmd, bool x86)
{
	enum pt_request req = PT_DEFAULT;

	for (size_t i = 0; i < cmd->n; i++) {
		enum pt_request w = word_request(&cmd->params[i], x86);

		if (w != PT_DEFAULT)
			req = w;
	}
	return req;
}

/* "iommu=pt / iommu.passthrough=on": every word as written that asks for want. */
static bool request_words(const struct cmdline *cmd, bool x86, enum pt_request want,
			  struct strbuf *b)
{
	bool any = false;

	for (size_t i = 0; i < cmd->n; i++) {
		const struct cmdline_param *p = &cmd->params[i];

		if (word_request(p, x86) != want)
			continue;
		if (b)
			strbuf_printf(b, "%s%s=%s", any ? " / " : "", p->key, p->value);
		any = true;
	}
	return any;
}

static bool type_is_translated(enum iommu_group_type t)
{
	return t == IOMMU_GROUP_DMA || t == IOMMU_GROUP_DMA_FQ;
}

#define LIST_GROUPS_MAX 4
#define LIST_DEVS_MAX	4

static void list_one_group(const struct iommu_group *g, struct strbuf *b)
{
	strbuf_printf(b, "group %s (", g->name);
	for (size_t i = 0; i < g->n_devices && i < LIST_DEVS_MAX; i++)
		strbuf_printf(b, "%s%s%s%s", i ? ", " : "", g->devices[i],
			      g->drivers[i][0] ? " " : "",
			      g->drivers[i][0] ? g->drivers[i] : " unbound");
	if (g->n_devices > LIST_DEVS_MAX)
		strbuf_printf(b, ", %zu more", g->n_devices - LIST_DEVS_MAX);
	if (!g->n_devices)
		strbuf_printf(b, "no devices");
	strbuf_printf(b, ")");
}

/*
 * "group 7 (0000:3a:00.0 nvidia), group 9 (...)" for the groups whose type is
 * (translated) or is not (identity) a DMA domain; returns the first one's name.
 */
static const char *list_groups(const struct iommu_state *s, bool translated, struct strbuf *b)
{
	const char *first = NULL;
	size_t shown = 0, total = 0;

	for (size_t i = 0; i < s->n_group; i++) {
		const struct iommu_group *g = &s->group[i];

		if (translated ? !type_is_translated(g->type) : g->type != IOMMU_GROUP_IDENTITY)
			continue;
		total++;
		if (shown == LIST_GROUPS_MAX)
			continue;
		strbuf_printf(b, "%s", shown ? ", " : "");
		list_one_group(g, b);
		first = first ? first : g->name;
		shown++;
	}
	if (total > shown)
		strbuf_printf(b, " and %zu more", total - shown);
	if (!total) /* counts only: no detail was scanned */
		strbuf_printf(b, "%zu groups",
			      translated
				      ? s->groups[IOMMU_GROUP_DMA] + s->groups[IOMMU_GROUP_DMA_FQ]
				      : s->groups[IOMMU_GROUP_IDENTITY]);
	return first;
}

/* Since 5.11 a group's default domain can be changed at runtime, with its drivers unbound. */
static void per_group_switch(const struct iommu_state *s, const char *group, const char *type,
			     struct strbuf *b)
{
	strbuf_printf(
		b,
		"; since Linux 5.11 a group can be switched at runtime: unbind the drivers of "
		"its devices, echo %s > %s/%s/type, bind them again",
		type, s->groups_dir ? s->groups_dir : "iommu_groups", group ? group : "N");
}

/* The kernel was asked for passthrough and some groups are still translated. */
static void remedy_translated_despite_pt(const struct iommu_state *s, const struct cmdline *cmd,
					 struct strbuf *b)
{
	const char *first;

	request_words(cmd, iommu_x86(s), PT_ON, b);
	strbuf_printf(b, " is already on the kernel command line, but these groups are in a "
			 "translated (DMA) domain: ");
	first = list_groups(s, true, b);
	strbuf_printf(b, ". The kernel keeps devices behind untrusted (external-facing) ports "
			 "translated, and a udev rule or tool may have written the type: find what "
			 "put them there");
	per_group_switch(s, first, "identity", b);
}

static void remedy_identity_despite_nopt(const struct iommu_state *s, const struct cmdline *cmd,
					 struct strbuf *b)
{
	const char *first;

	request_words(cmd, iommu_x86(s), PT_OFF, b);
	strbuf_printf(b, " is already on the kernel command line, but these groups are identity "
			 "(not translated): ");
	first = list_groups(s, false, b);
	strbuf_printf(b, ". A udev rule or tool may have written the type, or the IOMMU driver "
			 "requires identity for the device: find what put them there");
	per_group_switch(s, first, "DMA-FQ", b);
}

/* "group 3 (0000:01:00.0 vfio-pci) unmanaged, group 5 (...) type unreadable" */
static void list_opaque_matter(const struct iommu_state *s, struct strbuf *b)
{
	size_t shown = 0;

	for (size_t i = 0; i < s->n_group; i++) {
		const struct iommu_group *g = &s->group[i];

		if (!g->matters)
			continue;
		if (shown++ == LIST_GROUPS_MAX * 2) {
			strbuf_printf(b, " and %zu more", s->n_opaque_matter - LIST_GROUPS_MAX * 2);
			return;
		}
		strbuf_printf(b, "%s", shown > 1 ? ", " : "");
		list_one_group(g, b);
		strbuf_printf(b, " %s",
			      g->type == IOMMU_GROUP_OTHER ? "type unreadable"
							   : group_type_names[g->type]);
	}
}

static void remedy_unknown(const struct iommu_state *s, struct strbuf *b)
{
	size_t opaque = s->groups[IOMMU_GROUP_UNMANAGED] + s->groups[IOMMU_GROUP_BLOCKED];

	if (s->n_opaque_matter) {
		strbuf_printf(b,
			      "the IOMMU groups of these GPUs/NICs say neither identity nor DMA: ");
		list_opaque_matter(s, b);
		strbuf_printf(b,
			      "; the other groups alone do not tell the mode of the devices that "
			      "matter (unmanaged/blocked: owned by VFIO or a userspace driver, "
			      "check them on their kernel drivers; unreadable: no type file before "
			      "Linux 5.11, or the read failed)");
	} else if (s->n_groups == 0)
		strbuf_printf(b, "IOMMU units are active but there is no IOMMU group to read the "
				 "mode from (no device is attached to them, or the groups are not "
				 "visible here): nothing to change on the command line for that");
	else if (opaque == s->n_groups)
		strbuf_printf(b,
			      "every IOMMU group is 'unmanaged' or 'blocked': the devices are "
			      "owned by VFIO/userspace drivers (or this IOMMU driver has no kernel "
			      "default domain), so whether DMA is translated cannot be read from "
			      "the groups; iommu=pt would not change that. Check with the devices "
			      "on their kernel drivers");
	else
		strbuf_printf(b,
			      "the kernel does not show the groups' type (the type file appeared "
			      "in Linux 5.11), so passthrough cannot be told from translated here");
}

/*
 * The off switches in effect: each key's last word (intel_iommu=off intel_iommu=on is on);
 * all three are x86's, arm64 reads none. b NULL: only whether any is.
 */
static bool off_in_effect(const struct iommu_state *s, const struct cmdline *cmd, struct strbuf *b)
{
	bool any = false;

	for (size_t i = 0; i < ARRAY_SIZE(off_switches) && iommu_x86(s); i++) {
		if (!cmdline_has(cmd, off_switches[i][0], off_switches[i][1]))
			continue;
		if (b)
			strbuf_printf(b, "%s%s=off", any ? " / " : "", off_switches[i][0]);
		any = true;
	}
	return any;
}

/* An off switch a later word of its key undoes: "remove intel_iommu=on (...)". */
static bool off_undone(const struct iommu_state *s, const struct cmdline *cmd, struct strbuf *b)
{
	for (size_t i = 0; i < ARRAY_SIZE(off_switches) && iommu_x86(s); i++) {
		const char *key = off_switches[i][0];
		const struct cmdline_param *last = cmdline_find_last(cmd, key);

		if (!cmdline_has_anywhere(cmd, key, "off") || cmdline_has(cmd, key, "off"))
			continue;
		strbuf_printf(b,
			      "remove %s=%s from the kernel command line (it comes after %s=off, "
			      "and the last one wins), reboot",
			      key, strempty(last->value), key);
		return true;
	}
	return false;
}

static void remedy_off(const struct iommu_state *s, const struct cmdline *cmd, struct strbuf *b)
{
	if (off_undone(s, cmd, b))
		return;
	if (off_in_effect(s, cmd, b)) {
		strbuf_printf(
			b, " is already on the kernel command line, yet the IOMMU is active: "
			   "firmware that opts in to DMA protection (Kernel DMA Protection, "
			   "Thunderbolt) makes the kernel force it on; turn that off in firmware, "
			   "or check that the running kernel booted with this command line");
		return;
	}
	switch (iommu_vendor(s)) {
	case VENDOR_INTEL:
		strbuf_printf(b, "add intel_iommu=off to the kernel command line, reboot");
		return;
	case VENDOR_AMD:
		strbuf_printf(b, "add amd_iommu=off to the kernel command line, reboot");
		return;
	case VENDOR_ARM:
		strbuf_printf(b,
			      "arm-smmu-v3 has no kernel off switch: disable the SMMU in firmware, "
			      "or accept passthrough (iommu.passthrough=1)");
		return;
	default:
		strbuf_printf(b, "add iommu=off to the kernel command line, reboot");
	}
}

/* No IOMMU is active: what turned it off, and what to ask for once it is back. */
static void remedy_enable(const struct iommu_state *s, const struct cmdline *cmd, const char *then,
			  struct strbuf *b)
{
	if (off_in_effect(s, cmd, b))
		strbuf_printf(b, " turns the IOMMU off: remove it from the kernel command line");
	else if (cmdline_has(cmd, "intel_iommu", "on"))
		strbuf_printf(b, "no IOMMU is active although intel_iommu=on is set: enable VT-d "
				 "(or AMD-Vi) in firmware");
	else
		strbuf_printf(
			b, "no IOMMU is active and nothing on the command line turns it off: "
			   "enable VT-d/AMD-Vi (or the SMMU) in firmware, and add intel_iommu=on "
			   "on Intel kernels that default it off");
	strbuf_printf(b, "%s%s, reboot", then ? ", " : "", strempty(then));
}

static void remedy_passthrough(const struct iommu_state *s, const struct cmdline *cmd,
			       enum iommu_mode m, struct strbuf *b)
{
	bool x86 = iommu_x86(s);
	enum pt_request req = pt_request(cmd, x86);

	if (m == IOMMU_MODE_OFF) {
		remedy_enable(s, cmd,
			      req == PT_ON ? NULL : "add iommu=pt (x86) or iommu.passthrough=1", b);
	} else if (req == PT_ON) {
		remedy_translated_despite_pt(s, cmd, b);
	} else if (req == PT_OFF) {
		strbuf_printf(b, "remove ");
		request_words(cmd, x86, PT_OFF, b);
		if (request_words(cmd, x86, PT_ON, NULL))
			strbuf_printf(
				b, " from the kernel command line (it comes after the passthrough "
				   "request, and the last one wins), reboot");
		else
			strbuf_printf(
				b, " and add iommu=pt (x86) or iommu.passthrough=1 to the kernel "
				   "command line, reboot");
	} else if (!x86) {
		strbuf_printf(b, "add iommu.passthrough=1 to the kernel command line (arm64 has no "
				 "iommu=pt), reboot");
	} else {
		strbuf_printf(b, "add iommu=pt (x86) or iommu.passthrough=1 to the kernel command "
				 "line, reboot");
	}
}

static void remedy_translated(const struct iommu_state *s, const struct cmdline *cmd,
			      enum iommu_mode m, struct strbuf *b)
{
	bool x86 = iommu_x86(s);
	enum pt_request req = pt_request(cmd, x86);
	const char *first;

	if (m == IOMMU_MODE_OFF) {
		remedy_enable(s, cmd, NULL, b);
	} else if (req == PT_ON) {
		strbuf_printf(b, "remove ");
		request_words(cmd, x86, PT_ON, b);
		strbuf_printf(b, " from the kernel command line, reboot");
	} else if (req == PT_OFF) {
		remedy_identity_despite_nopt(s, cmd, b);
	} else if (m == IOMMU_MODE_PASSTHROUGH) {
		strbuf_printf(b, "add iommu.passthrough=0 to the kernel command line (this kernel "
				 "defaults to passthrough), reboot");
	} else {
		strbuf_printf(b, "these groups are identity (not translated): ");
		first = list_groups(s, false, b);
		strbuf_printf(b, "; add iommu.passthrough=0 to the kernel command line to make "
				 "translation the default, reboot");
		per_group_switch(s, first, "DMA-FQ", b);
	}
}

static bool mode_satisfies(enum iommu_mode m, enum iommu_expect e)
{
	switch (e) {
	case IOMMU_EXPECT_ANY:
		return true;
	case IOMMU_EXPECT_OFF:
		return m == IOMMU_MODE_OFF;
	case IOMMU_EXPECT_PASSTHROUGH:
		return m == IOMMU_MODE_PASSTHROUGH;
	case IOMMU_EXPECT_TRANSLATED:
		return m == IOMMU_MODE_TRANSLATED;
	default:
		return false;
	}
}

static void remedy(const struct iommu_state *s, const struct cmdline *cmd, enum iommu_expect expect,
		   enum iommu_mode m, struct strbuf *b)
{
	if (m == IOMMU_MODE_UNKNOWN)
		remedy_unknown(s, b);
	else if (expect == IOMMU_EXPECT_OFF)
		remedy_off(s, cmd, b);
	else if (expect == IOMMU_EXPECT_PASSTHROUGH)
		remedy_passthrough(s, cmd, m, b);
	else
		remedy_translated(s, cmd, m, b);
}

int iommu_verify(const struct iommu_state *s, const struct cmdline *cmd, enum iommu_expect expect,
		 struct results *rs)
{
	enum iommu_mode m = iommu_mode(s);
	/* The remedy is cut at 1023 bytes, as ever: many groups list more than that. */
	_cleanup_(strbuf_done) struct strbuf b = { .max = 1023 };
	char actual[512];
	enum verdict v;

	describe(s, cmd, actual, sizeof(actual));
	if (expect == IOMMU_EXPECT_ANY) /* nothing declared, nothing checked: never a pass */
		return results_addf(rs,
				    &(const struct result_spec){
					    .verdict = VERDICT_SKIP,
					    .check = "iommu.mode",
					    .object = "host",
					    .expected = "any",
					    .remedy = "declare the mode: [IOMMU] "
						      "Expect=off|passthrough|translated",
					    .action = ACTION_NONE,
				    },
				    "not declared (Expect=any): %s", actual);
	if (mode_satisfies(m, expect))
		v = VERDICT_PASS;
	else if (m == IOMMU_MODE_UNKNOWN)
		v = VERDICT_UNKNOWN;
	else
		v = VERDICT_FAIL;
	if (v != VERDICT_PASS)
		remedy(s, cmd, expect, m, &b);
	if (b.oom)
		return -ENOMEM;
	return results_add(rs, &(const struct result_spec){
				       .verdict = v,
				       .check = "iommu.mode",
				       .object = "host",
				       .expected = iommu_expect_to_string(expect),
				       .actual = actual,
				       .remedy = v == VERDICT_PASS ? NULL : strempty(b.s),
				       .action = ACTION_CONFIG,
			       });
}

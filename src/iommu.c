// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>

#include "fileio.h"
#include "iommu.h"
#include "log.h"

static const char *const group_type_names[_IOMMU_GROUP_TYPE_MAX] = {
	[IOMMU_GROUP_IDENTITY] = "identity", [IOMMU_GROUP_DMA] = "DMA",
	[IOMMU_GROUP_DMA_FQ] = "DMA-FQ",     [IOMMU_GROUP_UNMANAGED] = "unmanaged",
	[IOMMU_GROUP_BLOCKED] = "blocked",   [IOMMU_GROUP_OTHER] = "other",
};

static const char *const mode_names[] = {
	[IOMMU_MODE_OFF] = "off",
	[IOMMU_MODE_PASSTHROUGH] = "passthrough",
	[IOMMU_MODE_TRANSLATED] = "translated",
	[IOMMU_MODE_MIXED] = "mixed",
	[IOMMU_MODE_UNKNOWN] = "unknown",
};

const char *iommu_mode_to_string(enum iommu_mode m)
{
	return mode_names[m];
}

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
	_cleanup_(freep) char *path = sysroot_path(root, SYSROOT_SYS, "class/iommu");
	_cleanup_(closedirp) DIR *d = NULL;
	struct dirent *de;

	if (!path)
		return -ENOMEM;
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
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

static int scan_groups(const struct sysroot *root, struct iommu_state *s)
{
	_cleanup_(freep) char *dir = sysroot_path(root, SYSROOT_SYS, "kernel/iommu_groups");
	_cleanup_(closedirp) DIR *d = NULL;
	struct dirent *de;

	if (!dir)
		return -ENOMEM;
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		_cleanup_(freep) char *type = NULL, *path = NULL;

		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&path, "%s/%s/type", dir, de->d_name) < 0)
			return -ENOMEM;
		s->n_groups++;
		/* "type" appeared in 5.11; without it the group is unclassified. */
		if (read_one_line(path, &type) < 0)
			s->groups[IOMMU_GROUP_OTHER]++;
		else
			s->groups[group_type_from_string(type)]++;
	}
	return 0;
}

int iommu_scan(const struct sysroot *root, struct iommu_state *ret)
{
	struct iommu_state s = {};
	int r;

	r = scan_units(root, &s);
	if (r >= 0)
		r = scan_groups(root, &s);
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

static const char *remedy_passthrough(const struct iommu_state *s, const struct cmdline *cmd)
{
	if (iommu_mode(s) == IOMMU_MODE_OFF)
		return "the IOMMU is off: remove intel_iommu=off/amd_iommu=off/iommu=off (or "
		       "enable "
		       "VT-d/AMD-Vi in firmware), add iommu=pt, reboot";
	if (cmdline_has(cmd, "iommu.passthrough", "0") || cmdline_has(cmd, "iommu", "nopt"))
		return "remove iommu.passthrough=0 / iommu=nopt and add iommu=pt (x86) or "
		       "iommu.passthrough=1 to the kernel command line, reboot";
	return "add iommu=pt (x86) or iommu.passthrough=1 to the kernel command line, reboot";
}

static const char *remedy_off(const struct iommu_state *s)
{
	switch (iommu_vendor(s)) {
	case VENDOR_INTEL:
		return "add intel_iommu=off to the kernel command line, reboot";
	case VENDOR_AMD:
		return "add amd_iommu=off to the kernel command line, reboot";
	case VENDOR_ARM:
		return "arm-smmu-v3 has no kernel off switch: disable the SMMU in firmware, or "
		       "accept passthrough (iommu.passthrough=1)";
	default:
		return "add iommu=off to the kernel command line, reboot";
	}
}

static const char *remedy_translated(const struct iommu_state *s, const struct cmdline *cmd)
{
	if (iommu_mode(s) == IOMMU_MODE_OFF) {
		if (cmdline_has(cmd, "intel_iommu", "off") ||
		    cmdline_has(cmd, "amd_iommu", "off") || cmdline_has(cmd, "iommu", "off"))
			return "remove intel_iommu=off/amd_iommu=off/iommu=off from the kernel "
			       "command "
			       "line, reboot";
		return "enable VT-d/AMD-Vi in firmware and add intel_iommu=on (Intel), reboot";
	}
	if (cmdline_has(cmd, "iommu", "pt") || cmdline_has(cmd, "iommu.passthrough", "1"))
		return "remove iommu=pt / iommu.passthrough=1 from the kernel command line, reboot";
	return "add iommu.passthrough=0 to the kernel command line (the kernel's default is "
	       "passthrough here), reboot";
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

int iommu_verify(const struct iommu_state *s, const struct cmdline *cmd, enum iommu_expect expect,
		 struct results *rs)
{
	enum iommu_mode m = iommu_mode(s);
	const char *remedy = NULL;
	enum verdict v;
	char actual[512];

	describe(s, cmd, actual, sizeof(actual));
	if (mode_satisfies(m, expect))
		v = VERDICT_PASS;
	else if (m == IOMMU_MODE_UNKNOWN)
		v = VERDICT_UNKNOWN;
	else
		v = VERDICT_FAIL;
	if (v != VERDICT_PASS)
		remedy = expect == IOMMU_EXPECT_OFF	      ? remedy_off(s)
			 : expect == IOMMU_EXPECT_PASSTHROUGH ? remedy_passthrough(s, cmd)
							      : remedy_translated(s, cmd);
	return results_add(rs, v, "iommu.mode", "host", iommu_expect_to_string(expect), actual,
			   remedy);
}

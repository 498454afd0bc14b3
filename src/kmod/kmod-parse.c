// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <stdint.h>

#include "kmod/kmod-parse.h"
#include "core/string-table.h"

#define BLANKS " \t"

static int name_normalize(const char *in, char *out, size_t max, bool dash)
{
	size_t n = strlen(in);

	if (n == 0 || n > max)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		char c = in[i];

		if (c == '-' && dash)
			c = '_';
		if (!isalnum((unsigned char)c) && c != '_' && !(c == '-' && !dash))
			return -EINVAL;
		out[i] = c;
	}
	out[n] = '\0';
	return 0;
}

int kmod_name_normalize(const char *in, char *out)
{
	return name_normalize(in, out, KMOD_NAME_MAX, true);
}

int kmod_param_name_normalize(const char *in, char *out)
{
	return name_normalize(in, out, KMOD_PARAM_MAX, true);
}

bool kmod_param_value_valid(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > KMOD_VALUE_MAX)
		return false;
	for (; *s; s++)
		if (*s <= ' ' || *s > '~' || *s == '"' || *s == '\'' || *s == '\\')
			return false;
	return true;
}

/*
 * The spellings of a bool, whole words only: the kernel's kstrtobool() looks at the first
 * character ("16" and "yesterday" are Y to it), but a wanted value compared that way would
 * let a live "1" pass a wanted "16". Y/N is what param_get_bool prints.
 */
int kmod_param_bool(const char *s, char *ret)
{
	static const char *const yes[] = { "Y", "y", "1", "yes", "on", "true" };
	static const char *const no[] = { "N", "n", "0", "no", "off", "false" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*ret = 'Y';
			return 0;
		}
		if (strcasecmp(s, no[i]) == 0) {
			*ret = 'N';
			return 0;
		}
	}
	return -EINVAL;
}

static bool integer_type(const char *type)
{
	static const char *const ints[] = { "byte", "short", "ushort", "int",
					    "uint", "long",  "ulong",  "hexint" };

	for (size_t i = 0; i < ARRAY_SIZE(ints); i++)
		if (streq(type, ints[i]))
			return true;
	return false;
}

/* The whole string as a signed 65-bit value (sign and magnitude), base 0 like kstrto*(s, 0). */
static int integer_parse(const char *s, bool *neg, unsigned long long *mag)
{
	char *end;

	*neg = *s == '-';
	s += *s == '-' || *s == '+';
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*mag = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	*neg &= *mag != 0; /* -0 is 0 */
	return 0;
}

static bool integer_equal(const char *a, const char *b)
{
	unsigned long long x, y;
	bool nx, ny;

	return integer_parse(a, &nx, &x) == 0 && integer_parse(b, &ny, &y) == 0 && nx == ny &&
	       x == y;
}

static bool scalar_equal(const char *type, const char *have, const char *want)
{
	char h, w;

	if (type && (streq(type, "bool") || streq(type, "invbool")))
		return kmod_param_bool(have, &h) == 0 && kmod_param_bool(want, &w) == 0 && h == w;
	if (type && integer_type(type))
		return integer_equal(have, want);
	return streq(have, want);
}

/* "array of T": the same number of elements, each equal as a T. */
static bool array_equal(const char *type, const char *have, const char *want)
{
	char h[KMOD_VALUE_MAX + 1], w[KMOD_VALUE_MAX + 1];

	for (;;) {
		size_t nh = strcspn(have, ","), nw = strcspn(want, ",");

		if (nh > KMOD_VALUE_MAX || nw > KMOD_VALUE_MAX)
			return false;
		memcpy(h, have, nh);
		h[nh] = '\0';
		memcpy(w, want, nw);
		w[nw] = '\0';
		if (!scalar_equal(type, h, w))
			return false;
		if (!have[nh] || !want[nw])
			return !have[nh] && !want[nw];
		have += nh + 1;
		want += nw + 1;
	}
}

bool kmod_param_equal(const char *type, const char *have, const char *want)
{
	static const char array[] = "array of ";

	if (type && strneq(type, array, strlen(array)))
		return array_equal(type + strlen(array), have, want);
	return scalar_equal(type, have, want);
}

bool kmod_param_value_gives(const char *type, const char *value, const char *want)
{
	if (value)
		return kmod_param_equal(type, value, want);
	if (!type || (!streq(type, "bool") && !streq(type, "invbool")))
		return false;
	return kmod_param_equal(type, "Y", want);
}

static const char *const kmod_live_state_table[_KMOD_STATE_MAX] = {
	[KMOD_STATE_LIVE] = "live",
	[KMOD_STATE_COMING] = "coming",
	[KMOD_STATE_GOING] = "going",
};

DEFINE_STRING_TABLE_LOOKUP(kmod_live_state, enum kmod_live_state);

int kmod_initstate_parse(const char *s, enum kmod_live_state *ret)
{
	int i = kmod_live_state_from_string(s);

	if (i < 0)
		return i;
	*ret = i;
	return 0;
}

/* /proc/modules spells the states differently from initstate. */
static int proc_state_parse(const char *s, enum kmod_live_state *ret)
{
	if (streq(s, "Live"))
		*ret = KMOD_STATE_LIVE;
	else if (streq(s, "Loading"))
		*ret = KMOD_STATE_COMING;
	else if (streq(s, "Unloading"))
		*ret = KMOD_STATE_GOING;
	else
		return -EINVAL;
	return 0;
}

static int parse_refcnt(const char *s, long *ret)
{
	char *end;

	if (streq(s, "-")) {
		*ret = -1;
		return 0;
	}
	errno = 0;
	*ret = strtol(s, &end, 10);
	return errno || end == s || *end || *ret < 0 ? -EINVAL : 0;
}

/* "(OE)" → "OE"; a missing field is an untainted module. */
static int parse_taint(const char *s, char *ret, size_t size)
{
	size_t n;

	ret[0] = '\0';
	if (!s)
		return 0;
	n = strlen(s);
	if (n < 2 || s[0] != '(' || s[n - 1] != ')' || n - 2 >= size)
		return -EINVAL;
	memcpy(ret, s + 1, n - 2);
	ret[n - 2] = '\0';
	return 0;
}

/* "-" or "a,b," → "a,b" */
static char *users_from_field(const char *s)
{
	size_t n = strlen(s);

	if (streq(s, "-"))
		return strdup("");
	if (n && s[n - 1] == ',')
		n--;
	return strndup(s, n);
}

int proc_module_parse(const char *line, struct proc_module *ret)
{
	_cleanup_(freep) char *copy = strdup(line);
	char *f[7] = {}, *save = NULL, *tok;
	size_t n = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, " \t\n", &save); tok && n < ARRAY_SIZE(f);
	     tok = strtok_r(NULL, " \t\n", &save))
		f[n++] = tok;
	if (n < 6 || tok)
		return -EINVAL;
	*ret = (struct proc_module){};
	if (kmod_name_normalize(f[0], ret->name) < 0 || parse_refcnt(f[2], &ret->refcnt) < 0 ||
	    proc_state_parse(f[4], &ret->state) < 0 ||
	    parse_taint(f[6], ret->taint, sizeof(ret->taint)) < 0)
		return -EINVAL;
	ret->users = users_from_field(f[3]);
	return ret->users ? 0 : -ENOMEM;
}

void proc_module_done(struct proc_module *m)
{
	free(m->users);
	m->users = NULL;
}

int modinfo_name_value(const char *value, char *ret_name, const char **ret_text)
{
	const char *colon = strchr(value, ':');
	char name[KMOD_PARAM_MAX + 1];
	size_t n;

	if (!colon)
		return -EINVAL;
	n = colon - value;
	if (n == 0 || n > KMOD_PARAM_MAX)
		return -EINVAL;
	memcpy(name, value, n);
	name[n] = '\0';
	if (kmod_param_name_normalize(name, ret_name) < 0)
		return -EINVAL;
	*ret_text = colon + 1;
	return 0;
}

bool kmod_list_has(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p;) {
		size_t len = strcspn(p, ",");

		if (len == n && strneq(p, name, n))
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

int modprobe_blacklist_line(const char *line, char *ret_name)
{
	char word[16], name[KMOD_NAME_MAX + 2];
	char extra;
	int n;

	line += strspn(line, BLANKS);
	if (line[0] == '#' || line[0] == '\0' || line[0] == '\n')
		return 0;
	n = sscanf(line, "%15s %57s %c", word, name, &extra);
	if (n < 2 || !streq(word, "blacklist"))
		return 0;
	if (n == 3 && extra != '#')
		return 0; /* kmod ignores a line with trailing words; so do we */
	return kmod_name_normalize(name, ret_name) < 0 ? 0 : 1;
}

/* Compare a module file name ("mlx5-core.ko", "x.ko.xz") with a normalised name. */
static bool file_is_module(const char *base, size_t len, const char *name)
{
	char buf[KMOD_NAME_MAX + 1];
	const char *dot = memchr(base, '.', len);
	size_t n = dot ? (size_t)(dot - base) : len;

	if (n == 0 || n > KMOD_NAME_MAX)
		return false;
	memcpy(buf, base, n);
	buf[n] = '\0';
	for (char *c = buf; *c; c++)
		if (*c == '-')
			*c = '_';
	return streq(buf, name);
}

bool modules_builtin_has(const char *text, const char *name)
{
	for (const char *p = text; p && *p;) {
		size_t len = strcspn(p, "\n");
		const char *slash = memrchr(p, '/', len);
		const char *base = slash ? slash + 1 : p;

		if (file_is_module(base, len - (base - p), name))
			return true;
		p += len + (p[len] == '\n');
	}
	return false;
}

bool kmod_cmdline_blacklisted(const char *value, const char *name)
{
	char buf[KMOD_NAME_MAX + 1];

	for (const char *p = value; p && *p;) {
		size_t len = strcspn(p, ",");
		char raw[KMOD_NAME_MAX + 1];

		if (len && len <= KMOD_NAME_MAX) {
			memcpy(raw, p, len);
			raw[len] = '\0';
			if (kmod_name_normalize(raw, buf) == 0 && streq(buf, name))
				return true;
		}
		p += len + (p[len] == ',');
	}
	return false;
}

bool ofed_version_valid(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > KMOD_VERSION_MAX || !isdigit((unsigned char)s[0]))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(".-_", *s))
			return false;
	return true;
}

static int cmp_digits(const char **pa, const char **pb)
{
	const char *a = *pa, *b = *pb;
	size_t na, nb;

	while (*a == '0' && isdigit((unsigned char)a[1]))
		a++;
	while (*b == '0' && isdigit((unsigned char)b[1]))
		b++;
	for (na = 0; isdigit((unsigned char)a[na]);)
		na++;
	for (nb = 0; isdigit((unsigned char)b[nb]);)
		nb++;
	*pa = a + na;
	*pb = b + nb;
	if (na != nb)
		return na < nb ? -1 : 1;
	for (size_t i = 0; i < na; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

int ofed_version_cmp(const char *a, const char *b)
{
	while (*a || *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			int r = cmp_digits(&a, &b);

			if (r)
				return r;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return 0;
}

bool kernel_at_least(const char *osrelease, unsigned major, unsigned minor)
{
	unsigned ma, mi;

	if (!osrelease || sscanf(osrelease, "%u.%u", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

enum kmod_path_kind kmod_path_kind(const char *relpath)
{
	if (strneq(relpath, "kernel/", strlen("kernel/")))
		return KMOD_PATH_INBOX;
	if (strneq(relpath, "updates/", strlen("updates/")))
		return KMOD_PATH_UPDATES;
	if (strneq(relpath, "extra/", strlen("extra/")))
		return KMOD_PATH_EXTRA;
	return KMOD_PATH_OTHER;
}

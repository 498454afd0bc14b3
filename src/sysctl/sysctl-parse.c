// SPDX-License-Identifier: GPL-2.0-or-later
/* [Sysctl]: names and values, pure. */
#include <ctype.h>
#include <stdint.h>

#include "sysctl/sysctl.h"

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-';
}

bool sysctl_name_valid(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > SYSCTL_NAME_MAX || name[0] == '.' || name[n - 1] == '.')
		return false;
	for (size_t i = 0; i < n; i++) {
		if (name[i] == '.' && name[i + 1] == '.')
			return false; /* an empty word: "a..b" */
		if (name[i] != '.' && !word_char(name[i]))
			return false; /* '/', whitespace, '*', ... */
	}
	return true;
}

char *sysctl_normalize(const char *s)
{
	char *out = malloc(strlen(s) + 1), *p = out;

	if (!out)
		return NULL;
	for (;;) {
		s += strspn(s, " \t\n");
		if (!*s)
			break;
		if (p != out)
			*p++ = ' ';
		while (*s && !strchr(" \t\n", *s))
			*p++ = *s++;
	}
	*p = '\0';
	return out;
}

static bool value_valid(const char *v)
{
	if (!*v || strlen(v) > SYSCTL_VALUE_MAX)
		return false;
	for (; *v; v++)
		if ((unsigned char)*v < 0x20 || *v == 0x7f)
			return false;
	return true;
}

int sysctl_parse_expect(const char *s, char **ret_name, char **ret_value, const char **reason)
{
	const char *eq = strchr(s, '=');
	_cleanup_(freep) char *name = NULL, *value = NULL;
	size_t n;

	if (!eq) {
		*reason = "expected NAME=VALUE, like kernel.numa_balancing=0";
		return -EINVAL;
	}
	n = eq - s;
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	name = strndup(s, n);
	value = sysctl_normalize(eq + 1);
	if (!name || !value)
		return -ENOMEM;
	if (!sysctl_name_valid(name)) {
		*reason = "invalid name (dotted form: words of A-Z a-z 0-9 _ - joined by single "
			  "dots; no '/')";
		return -EINVAL;
	}
	if (!value_valid(value)) {
		*reason = "the value is empty, too long or has control characters";
		return -EINVAL;
	}
	*ret_name = TAKE_PTR(name);
	*ret_value = TAKE_PTR(value);
	return 0;
}

/* A whole word that is a decimal integer (what proc_dointvec and friends print). */
static bool word_int(const char *w, size_t n, long long *ret)
{
	char buf[32], *end;

	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, w, n);
	buf[n] = '\0';
	if (!(isdigit((unsigned char)buf[0]) || (buf[0] == '-' && isdigit((unsigned char)buf[1]))))
		return false;
	errno = 0;
	*ret = strtoll(buf, &end, 10);
	return errno == 0 && *end == '\0';
}

static bool words_equal(const char *a, size_t na, const char *b, size_t nb)
{
	long long x, y;

	if (word_int(a, na, &x) && word_int(b, nb, &y))
		return x == y;
	return na == nb && memcmp(a, b, na) == 0;
}

bool sysctl_values_equal(const char *a, const char *b)
{
	static const char ws[] = " \t\n";

	for (;;) {
		size_t na, nb;

		a += strspn(a, ws);
		b += strspn(b, ws);
		if (!*a || !*b)
			return !*a && !*b;
		na = strcspn(a, ws);
		nb = strcspn(b, ws);
		if (!words_equal(a, na, b, nb))
			return false;
		a += na;
		b += nb;
	}
}

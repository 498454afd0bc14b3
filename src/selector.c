// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <stdio.h>

#include "selector.h"

#define UPSTREAM_PREFIX "upstream:"
#define CLASS_PREFIX	"class:"

static int parse_hex(const char *s, size_t len, size_t max_digits, uint32_t *ret)
{
	uint32_t v = 0;

	if (len == 0 || len > max_digits)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return -EINVAL;
		v = v << 4 | (uint32_t)(isdigit((unsigned char)s[i])
						? s[i] - '0'
						: (tolower((unsigned char)s[i]) - 'a' + 10));
	}
	*ret = v;
	return 0;
}

int pci_address_parse(const char *s, uint32_t *domain, uint8_t *bus, uint8_t *dev, uint8_t *func)
{
	uint32_t d = 0, b, v, f;
	const char *c1 = strchr(s, ':'), *c2, *dot;

	if (!c1)
		return -EINVAL;
	c2 = strchr(c1 + 1, ':');
	if (c2) {
		if (parse_hex(s, c1 - s, 5, &d) < 0)
			return -EINVAL;
		s = c1 + 1;
		c1 = c2;
	}
	dot = strchr(c1 + 1, '.');
	if (!dot || parse_hex(s, c1 - s, 2, &b) < 0 || parse_hex(c1 + 1, dot - c1 - 1, 2, &v) < 0 ||
	    parse_hex(dot + 1, strlen(dot + 1), 1, &f) < 0)
		return -EINVAL;
	if (v > 0x1f || f > 7)
		return -EINVAL;
	*domain = d;
	*bus = b;
	*dev = v;
	*func = f;
	return 0;
}

static int parse_id_half(const char *s, size_t len, int32_t *ret)
{
	uint32_t v;

	if (len == 1 && s[0] == '*') {
		*ret = SELECTOR_ANY;
		return 0;
	}
	if (len != 4 || parse_hex(s, len, 4, &v) < 0)
		return -EINVAL;
	*ret = (int32_t)v;
	return 0;
}

static int parse_class(const char *s, struct selector *sel, const char **reason)
{
	size_t len = strlen(s);
	uint32_t v;

	if ((len != 2 && len != 4 && len != 6) || parse_hex(s, len, 6, &v) < 0) {
		*reason = "class must be 2, 4 or 6 hex digits (base class, subclass, prog-if)";
		return -EINVAL;
	}
	sel->kind = SELECTOR_CLASS;
	sel->class_value = v << (4 * (6 - len));
	sel->class_mask = 0xffffffu << (4 * (6 - len)) & 0xffffffu;
	return 0;
}

static int parse_id(const char *s, struct selector *sel, const char **reason)
{
	const char *colon = strchr(s, ':');

	if (!colon || strchr(colon + 1, ':') || parse_id_half(s, colon - s, &sel->vendor) < 0 ||
	    parse_id_half(colon + 1, strlen(colon + 1), &sel->device) < 0) {
		*reason = "expected a PCI address (0000:3a:00.0), vendor:device in hex with '*' "
			  "wildcards (10b5:*), class:CCCC or upstream:<selector>";
		return -EINVAL;
	}
	sel->kind = SELECTOR_ID;
	return 0;
}

int selector_parse(const char *text, struct selector *ret, const char **reason)
{
	struct selector sel = { .vendor = SELECTOR_ANY, .device = SELECTOR_ANY };
	const char *s = text;
	int r;

	*reason = NULL;
	if (strlen(text) >= SELECTOR_TEXT_MAX) {
		*reason = "selector too long";
		return -EINVAL;
	}
	if (strneq(s, UPSTREAM_PREFIX, strlen(UPSTREAM_PREFIX))) {
		sel.upstream = true;
		s += strlen(UPSTREAM_PREFIX);
		if (strneq(s, UPSTREAM_PREFIX, strlen(UPSTREAM_PREFIX))) {
			*reason = "upstream: cannot be nested";
			return -EINVAL;
		}
	}
	if (strneq(s, CLASS_PREFIX, strlen(CLASS_PREFIX)))
		r = parse_class(s + strlen(CLASS_PREFIX), &sel, reason);
	else if (strchr(s, '.') &&
		 pci_address_parse(s, &sel.domain, &sel.bus, &sel.dev, &sel.func) == 0) {
		sel.kind = SELECTOR_ADDRESS;
		r = 0;
	} else if (strchr(s, '.')) {
		*reason = "bad PCI address, expected [dddd:]bb:dd.f";
		r = -EINVAL;
	} else
		r = parse_id(s, &sel, reason);
	if (r < 0)
		return r;
	*ret = sel;
	return 0;
}

bool selector_match_ident(const struct selector *s, const struct pci_ident *id)
{
	switch (s->kind) {
	case SELECTOR_ADDRESS:
		return s->domain == id->domain && s->bus == id->bus && s->dev == id->dev &&
		       s->func == id->func;
	case SELECTOR_ID:
		return (s->vendor == SELECTOR_ANY || s->vendor == id->vendor) &&
		       (s->device == SELECTOR_ANY || s->device == id->device);
	case SELECTOR_CLASS:
		return (id->class_code & s->class_mask) == s->class_value;
	}
	return false;
}

static void format_half(int32_t v, char buf[static 9])
{
	if (v == SELECTOR_ANY)
		strcpy(buf, "*");
	else
		snprintf(buf, 9, "%04x", (unsigned)v & 0xffff);
}

void selector_format(const struct selector *s, char *buf, size_t size)
{
	const char *up = s->upstream ? UPSTREAM_PREFIX : "";
	char v[9], d[9];

	switch (s->kind) {
	case SELECTOR_ADDRESS:
		snprintf(buf, size, "%s%04x:%02x:%02x.%x", up, s->domain, s->bus, s->dev, s->func);
		break;
	case SELECTOR_ID:
		format_half(s->vendor, v);
		format_half(s->device, d);
		snprintf(buf, size, "%s%s:%s", up, v, d);
		break;
	case SELECTOR_CLASS: {
		int digits = s->class_mask == 0xff0000 ? 2 : s->class_mask == 0xffff00 ? 4 : 6;

		snprintf(buf, size, "%s" CLASS_PREFIX "%0*x", up, digits,
			 s->class_value >> (4 * (6 - digits)));
		break;
	}
	}
}

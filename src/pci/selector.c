// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <stdio.h>

#include "pci/accel.h"
#include "pci/selector.h"

#define UPSTREAM_PREFIX "upstream:"
#define P2P_PREFIX	"p2p:"
#define P2P_SEP		'~'
#define CLASS_PREFIX	"class:"
#define ACCEL_WORD	"accel"

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

bool pci_address_is_kernel(const char *s)
{
	char buf[sizeof("fffff:ff:1f.7")];
	uint32_t domain;
	uint8_t bus, dev, func;

	if (strlen(s) >= sizeof(buf) || pci_address_parse(s, &domain, &bus, &dev, &func) < 0)
		return false;
	snprintf(buf, sizeof(buf), "%04x:%02x:%02x.%x", domain, bus, dev, func);
	return streq(s, buf);
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
			  "wildcards (10b5:*), class:CCCC, accel or upstream:<selector>";
		return -EINVAL;
	}
	sel->kind = SELECTOR_ID;
	return 0;
}

/* A device selector: address, vendor:device, class or accel (no path form). */
static int parse_device(const char *s, struct selector *sel, const char **reason)
{
	if (streq(s, ACCEL_WORD)) {
		sel->kind = SELECTOR_ACCEL;
		return 0;
	}
	if (strneq(s, CLASS_PREFIX, strlen(CLASS_PREFIX)))
		return parse_class(s + strlen(CLASS_PREFIX), sel, reason);
	if (strchr(s, '.') &&
	    pci_address_parse(s, &sel->domain, &sel->bus, &sel->dev, &sel->func) == 0) {
		sel->kind = SELECTOR_ADDRESS;
		return 0;
	}
	if (strchr(s, '.')) {
		*reason = "bad PCI address, expected [dddd:]bb:dd.f";
		return -EINVAL;
	}
	return parse_id(s, sel, reason);
}

static void to_peer(const struct selector *s, struct selector_peer *p)
{
	*p = (struct selector_peer){ .kind = s->kind,
				     .domain = s->domain,
				     .bus = s->bus,
				     .dev = s->dev,
				     .func = s->func,
				     .vendor = s->vendor,
				     .device = s->device,
				     .class_value = s->class_value,
				     .class_mask = s->class_mask };
}

static void from_peer(const struct selector_peer *p, struct selector *s)
{
	*s = (struct selector){ .kind = p->kind,
				.domain = p->domain,
				.bus = p->bus,
				.dev = p->dev,
				.func = p->func,
				.vendor = p->vendor,
				.device = p->device,
				.class_value = p->class_value,
				.class_mask = p->class_mask };
}

/* "A~B" or "A": both device selectors; a path form inside is refused. */
static int parse_p2p(const char *s, struct selector *sel, const char **reason)
{
	struct selector b = { .vendor = SELECTOR_ANY, .device = SELECTOR_ANY };
	const char *tilde = strchr(s, P2P_SEP);
	_cleanup_(freep) char *a = strndup(s, tilde ? (size_t)(tilde - s) : strlen(s));
	int r;

	if (!a) {
		*reason = "out of memory";
		return -ENOMEM;
	}
	if (strneq(a, UPSTREAM_PREFIX, strlen(UPSTREAM_PREFIX)) || strneq(a, P2P_PREFIX, 4) ||
	    (tilde && (strneq(tilde + 1, UPSTREAM_PREFIX, strlen(UPSTREAM_PREFIX)) ||
		       strneq(tilde + 1, P2P_PREFIX, 4)))) {
		*reason = "p2p: takes device selectors (p2p:A~B), not upstream: or p2p:";
		return -EINVAL;
	}
	if (tilde && strchr(tilde + 1, P2P_SEP)) {
		*reason = "p2p: takes two device sets at most (p2p:A~B)";
		return -EINVAL;
	}
	r = parse_device(a, sel, reason);
	if (r < 0 || !tilde)
		return r;
	r = parse_device(tilde + 1, &b, reason);
	if (r < 0)
		return r;
	to_peer(&b, &sel->peer);
	sel->has_peer = true;
	return 0;
}

static int parse(const char *text, bool allow_p2p, struct selector *ret, const char **reason)
{
	struct selector sel = { .vendor = SELECTOR_ANY, .device = SELECTOR_ANY };
	const char *s = text;
	int r;

	*reason = NULL;
	if (strlen(text) >= SELECTOR_TEXT_MAX) {
		*reason = "selector too long";
		return -EINVAL;
	}
	if (strneq(s, P2P_PREFIX, strlen(P2P_PREFIX))) {
		if (!allow_p2p) {
			*reason = "p2p: selects the ports between devices: only [ACS:*] Select= "
				  "and Exclude= take it";
			return -EINVAL;
		}
		sel.p2p = true;
		r = parse_p2p(s + strlen(P2P_PREFIX), &sel, reason);
		if (r < 0)
			return r;
		*ret = sel;
		return 0;
	}
	if (strneq(s, UPSTREAM_PREFIX, strlen(UPSTREAM_PREFIX))) {
		sel.upstream = true;
		s += strlen(UPSTREAM_PREFIX);
		if (strneq(s, UPSTREAM_PREFIX, strlen(UPSTREAM_PREFIX)) ||
		    strneq(s, P2P_PREFIX, strlen(P2P_PREFIX))) {
			*reason = "upstream: cannot be nested";
			return -EINVAL;
		}
	}
	r = parse_device(s, &sel, reason);
	if (r < 0)
		return r;
	*ret = sel;
	return 0;
}

int selector_parse(const char *text, struct selector *ret, const char **reason)
{
	return parse(text, false, ret, reason);
}

int selector_parse_acs(const char *text, struct selector *ret, const char **reason)
{
	return parse(text, true, ret, reason);
}

bool selector_match_peer(const struct selector *s, const struct pci_ident *id)
{
	struct selector b;

	if (!s->has_peer)
		return selector_match_ident(s, id);
	from_peer(&s->peer, &b);
	return selector_match_ident(&b, id);
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
	case SELECTOR_ACCEL:
		return pci_accel_lookup(id) != NULL;
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

static void format_device(const struct selector *s, const char *prefix, char *buf, size_t size)
{
	char v[9], d[9];

	switch (s->kind) {
	case SELECTOR_ADDRESS:
		snprintf(buf, size, "%s%04x:%02x:%02x.%x", prefix, s->domain, s->bus, s->dev,
			 s->func);
		break;
	case SELECTOR_ID:
		format_half(s->vendor, v);
		format_half(s->device, d);
		snprintf(buf, size, "%s%s:%s", prefix, v, d);
		break;
	case SELECTOR_CLASS: {
		int digits = s->class_mask == 0xff0000 ? 2 : s->class_mask == 0xffff00 ? 4 : 6;

		snprintf(buf, size, "%s" CLASS_PREFIX "%0*x", prefix, digits,
			 s->class_value >> (4 * (6 - digits)));
		break;
	}
	case SELECTOR_ACCEL:
		snprintf(buf, size, "%s" ACCEL_WORD, prefix);
		break;
	}
}

void selector_format(const struct selector *s, char *buf, size_t size)
{
	char a[SELECTOR_TEXT_MAX], b[SELECTOR_TEXT_MAX];
	struct selector peer;

	if (!s->p2p) {
		format_device(s, s->upstream ? UPSTREAM_PREFIX : "", buf, size);
		return;
	}
	format_device(s, P2P_PREFIX, a, sizeof(a));
	if (!s->has_peer) {
		snprintf(buf, size, "%s", a);
		return;
	}
	from_peer(&s->peer, &peer);
	format_device(&peer, "", b, sizeof(b));
	snprintf(buf, size, "%s%c%s", a, P2P_SEP, b);
}

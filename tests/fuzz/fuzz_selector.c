// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PCI selectors of [ACS:*] Select=/Exclude= (src/pci/selector.c) and PCI addresses. A selector
 * that parses is formatted to its canonical text, which must parse to the same selector and
 * format to the same text; matching must not depend on how it was spelled.
 */
#include "fuzz.h"
#include "pci/selector.h"

static const struct pci_ident idents[] = {
	{ 0x0000, 0x00, 0x01, 0, 0x8086, 0x347a, 0x060400 },
	{ 0x0000, 0x3a, 0x00, 0, 0x10b5, 0xc010, 0x060400 },
	{ 0x0000, 0x3b, 0x00, 1, 0x10de, 0x2330, 0x030200 },
	{ 0x10000, 0xe0, 0x1f, 7, 0x15b3, 0x101d, 0x020000 },
	{ 0xffff, 0xff, 0x1f, 7, 0xffff, 0xffff, 0xffffff },
};

static bool same(const struct selector *a, const struct selector *b)
{
	if (a->kind != b->kind || a->upstream != b->upstream)
		return false;
	switch (a->kind) {
	case SELECTOR_ADDRESS:
		return a->domain == b->domain && a->bus == b->bus && a->dev == b->dev &&
		       a->func == b->func;
	case SELECTOR_ID:
		return a->vendor == b->vendor && a->device == b->device;
	case SELECTOR_CLASS:
		return a->class_value == b->class_value && a->class_mask == b->class_mask;
	case SELECTOR_ACCEL: /* the table of known accelerators: nothing but the kind */
		return true;
	}
	return false;
}

static void check_address(const char *s)
{
	uint32_t domain;
	uint8_t bus, dev, func;

	if (pci_address_parse(s, &domain, &bus, &dev, &func) < 0)
		return;
	fuzz_assert(dev < 32 && func < 8);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	_cleanup_(freep) char *s = fuzz_strndup(data, size);
	char text[SELECTOR_TEXT_MAX], again_text[SELECTOR_TEXT_MAX];
	struct selector sel, again;
	const char *reason = NULL;

	check_address(s);
	if (selector_parse(s, &sel, &reason) < 0) {
		fuzz_assert(reason);
		return 0;
	}
	selector_format(&sel, text, sizeof(text));
	fuzz_assert(selector_parse(text, &again, &reason) == 0);
	fuzz_assert(same(&sel, &again));
	selector_format(&again, again_text, sizeof(again_text));
	fuzz_assert(streq(text, again_text));
	for (size_t i = 0; i < ARRAY_SIZE(idents); i++)
		fuzz_assert(selector_match_ident(&sel, &idents[i]) ==
			    selector_match_ident(&again, &idents[i]));
	return 0;
}

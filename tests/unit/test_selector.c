// SPDX-License-Identifier: GPL-2.0-or-later
/* PCI device selectors of [ACS:*] rules: parsing, matching, canonical text. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pci/selector.h"

static struct selector parse_ok(const char *text)
{
	struct selector s;
	const char *reason = "unset";

	memset(&s, 0xa5, sizeof(s));
	assert_int_equal(selector_parse(text, &s, &reason), 0);
	assert_null(reason);
	return s;
}

static void assert_rejected(const char *text)
{
	struct selector s = { .kind = SELECTOR_CLASS, .class_value = 0x123456 };
	const char *reason = NULL;

	assert_int_equal(selector_parse(text, &s, &reason), -EINVAL);
	assert_non_null(reason);
	assert_true(strlen(reason) > 0);
	/* ret untouched on failure */
	assert_int_equal(s.kind, SELECTOR_CLASS);
	assert_int_equal(s.class_value, 0x123456);
}

static void assert_format(const char *text, const char *canonical)
{
	struct selector s = parse_ok(text), again;
	char buf[SELECTOR_TEXT_MAX];

	selector_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, canonical);
	/* The canonical text parses back to the same selector. */
	again = parse_ok(buf);
	assert_int_equal(again.kind, s.kind);
	assert_int_equal(again.upstream, s.upstream);
	selector_format(&again, buf, sizeof(buf));
	assert_string_equal(buf, canonical);
}

static void test_address_parse(void **state)
{
	uint32_t dom = 99;
	uint8_t bus = 99, dev = 99, fn = 99;

	assert_int_equal(pci_address_parse("0000:3a:00.0", &dom, &bus, &dev, &fn), 0);
	assert_int_equal(dom, 0);
	assert_int_equal(bus, 0x3a);
	assert_int_equal(dev, 0);
	assert_int_equal(fn, 0);

	assert_int_equal(pci_address_parse("c1:1f.7", &dom, &bus, &dev, &fn), 0);
	assert_int_equal(dom, 0);
	assert_int_equal(bus, 0xc1);
	assert_int_equal(dev, 0x1f);
	assert_int_equal(fn, 7);

	/* VMD domains have 5 hex digits. */
	assert_int_equal(pci_address_parse("10000:e1:02.3", &dom, &bus, &dev, &fn), 0);
	assert_int_equal(dom, 0x10000);
	assert_int_equal(bus, 0xe1);
	assert_int_equal(dev, 2);
	assert_int_equal(fn, 3);

	assert_int_equal(pci_address_parse("00AB:3A:1E.1", &dom, &bus, &dev, &fn), 0);
	assert_int_equal(dom, 0xab);
	assert_int_equal(bus, 0x3a);
	assert_int_equal(dev, 0x1e);
	assert_int_equal(fn, 1);
}

/* A function's name as the kernel prints it: "%04x:%02x:%02x.%d", nothing else. */
static void test_address_is_kernel(void **state)
{
	assert_true(pci_address_is_kernel("0000:3a:00.0"));
	assert_true(pci_address_is_kernel("10000:01:00.0")); /* VMD */
	assert_true(pci_address_is_kernel("fffff:ff:1f.7"));
	assert_true(pci_address_is_kernel("00ab:3a:1e.1"));
	assert_false(pci_address_is_kernel("00AB:3a:1e.1"));
	assert_false(pci_address_is_kernel("3a:00.0"));
	assert_false(pci_address_is_kernel("000:3a:00.0"));
	assert_false(pci_address_is_kernel("00000:3a:00.0"));
	assert_false(pci_address_is_kernel("0000:3a:0.0"));
	assert_false(pci_address_is_kernel("0000:3a:00.0 "));
	assert_false(pci_address_is_kernel("100000:01:00.0"));
	assert_false(pci_address_is_kernel("pci0000:00"));
	assert_false(pci_address_is_kernel(""));
}

static void test_address_parse_bad(void **state)
{
	uint32_t dom = 99;
	uint8_t bus = 99, dev = 99, fn = 99;

	assert_int_equal(pci_address_parse("0000:3a:20.0", &dom, &bus, &dev, &fn), -EINVAL);
	assert_int_equal(pci_address_parse("0000:3a:00.8", &dom, &bus, &dev, &fn), -EINVAL);
	assert_int_equal(pci_address_parse("100000:3a:00.0", &dom, &bus, &dev, &fn), -EINVAL);
	assert_int_equal(pci_address_parse("0000:13a:00.0", &dom, &bus, &dev, &fn), -EINVAL);
	assert_int_equal(pci_address_parse("0000:3a:00", &dom, &bus, &dev, &fn), -EINVAL);
	assert_int_equal(pci_address_parse("0000:3a:00.", &dom, &bus, &dev, &fn), -EINVAL);
	assert_int_equal(pci_address_parse("0000:3a:00.00", &dom, &bus, &dev, &fn), -EINVAL);
	assert_int_equal(pci_address_parse("3a00.0", &dom, &bus, &dev, &fn), -EINVAL);
	assert_int_equal(pci_address_parse("0000:zz:00.0", &dom, &bus, &dev, &fn), -EINVAL);
	assert_int_equal(pci_address_parse("0:0000:3a:00.0", &dom, &bus, &dev, &fn), -EINVAL);
	assert_int_equal(pci_address_parse("", &dom, &bus, &dev, &fn), -EINVAL);
	/* Outputs untouched on failure. */
	assert_int_equal(dom, 99);
	assert_int_equal(bus, 99);
	assert_int_equal(dev, 99);
	assert_int_equal(fn, 99);
}

static void test_selector_address(void **state)
{
	struct selector s = parse_ok("3a:00.0");
	struct pci_ident id = { .domain = 0, .bus = 0x3a, .dev = 0, .func = 0 };

	assert_int_equal(s.kind, SELECTOR_ADDRESS);
	assert_false(s.upstream);
	assert_int_equal(s.domain, 0);
	assert_int_equal(s.bus, 0x3a);
	assert_true(selector_match_ident(&s, &id));
	id.func = 1;
	assert_false(selector_match_ident(&s, &id));
	id.func = 0;
	id.domain = 1;
	assert_false(selector_match_ident(&s, &id));

	s = parse_ok("10000:e1:02.3");
	id = (struct pci_ident){ .domain = 0x10000, .bus = 0xe1, .dev = 2, .func = 3 };
	assert_true(selector_match_ident(&s, &id));
	id.bus = 0xe2;
	assert_false(selector_match_ident(&s, &id));
}

static void test_selector_address_bad(void **state)
{
	assert_rejected("0000:3a:20.0"); /* device > 0x1f */
	assert_rejected("0000:3a:00.8"); /* function > 7 */
	assert_rejected("3a:00.");
	assert_rejected("100000:3a:00.0");
	assert_rejected("upstream:0000:3a:1f.9");
}

static void test_selector_vendor_device(void **state)
{
	struct pci_ident plx = { .vendor = 0x10b5, .device = 0x8796 };
	struct pci_ident other = { .vendor = 0x10b5, .device = 0x8749 };
	struct pci_ident nv = { .vendor = 0x10de, .device = 0x8796 };
	struct selector s = parse_ok("10b5:8796");

	assert_int_equal(s.kind, SELECTOR_ID);
	assert_int_equal(s.vendor, 0x10b5);
	assert_int_equal(s.device, 0x8796);
	assert_true(selector_match_ident(&s, &plx));
	assert_false(selector_match_ident(&s, &other));
	assert_false(selector_match_ident(&s, &nv));

	s = parse_ok("10B5:*");
	assert_int_equal(s.vendor, 0x10b5);
	assert_int_equal(s.device, SELECTOR_ANY);
	assert_true(selector_match_ident(&s, &plx));
	assert_true(selector_match_ident(&s, &other));
	assert_false(selector_match_ident(&s, &nv));

	s = parse_ok("*:8796");
	assert_int_equal(s.vendor, SELECTOR_ANY);
	assert_true(selector_match_ident(&s, &plx));
	assert_false(selector_match_ident(&s, &other));
	assert_true(selector_match_ident(&s, &nv));
}

static void test_selector_vendor_device_bad(void **state)
{
	assert_rejected("10b5");
	assert_rejected("10b5:");
	assert_rejected("10b5:879");
	assert_rejected("10b5:87961");
	assert_rejected("10b5:8796:1234");
	assert_rejected("1g00:8796");
	assert_rejected("**:8796");
	assert_rejected("");
}

static void test_selector_class_prefixes(void **state)
{
	struct pci_ident gpu = { .class_code = 0x030200 }; /* 3D controller */
	struct pci_ident vga = { .class_code = 0x030000 };
	struct pci_ident bridge = { .class_code = 0x060400 };
	struct selector s = parse_ok("class:03");

	assert_int_equal(s.kind, SELECTOR_CLASS);
	assert_int_equal(s.class_value, 0x030000);
	assert_int_equal(s.class_mask, 0xff0000);
	assert_true(selector_match_ident(&s, &gpu));
	assert_true(selector_match_ident(&s, &vga));
	assert_false(selector_match_ident(&s, &bridge));

	s = parse_ok("class:0302");
	assert_int_equal(s.class_value, 0x030200);
	assert_int_equal(s.class_mask, 0xffff00);
	assert_true(selector_match_ident(&s, &gpu));
	assert_false(selector_match_ident(&s, &vga));

	s = parse_ok("class:060400");
	assert_int_equal(s.class_value, 0x060400);
	assert_int_equal(s.class_mask, 0xffffff);
	assert_true(selector_match_ident(&s, &bridge));
	bridge.class_code = 0x060401; /* subtractive decode */
	assert_false(selector_match_ident(&s, &bridge));
}

static void test_selector_class_bad(void **state)
{
	assert_rejected("class:");
	assert_rejected("class:3");
	assert_rejected("class:030");
	assert_rejected("class:03020");
	assert_rejected("class:0302000");
	assert_rejected("class:03g2");
}

static void test_selector_upstream(void **state)
{
	struct pci_ident gpu = { .class_code = 0x030200, .vendor = 0x10de, .device = 0x2330 };
	struct selector s = parse_ok("upstream:class:0302");

	assert_true(s.upstream);
	assert_int_equal(s.kind, SELECTOR_CLASS);
	/* selector_match_ident ignores the flag: it matches the endpoint. */
	assert_true(selector_match_ident(&s, &gpu));

	s = parse_ok("upstream:10de:*");
	assert_true(s.upstream);
	assert_int_equal(s.kind, SELECTOR_ID);
	assert_int_equal(s.vendor, 0x10de);

	s = parse_ok("upstream:0000:1b:00.0");
	assert_true(s.upstream);
	assert_int_equal(s.kind, SELECTOR_ADDRESS);
	assert_int_equal(s.bus, 0x1b);
}

static void test_selector_upstream_nested_rejected(void **state)
{
	struct selector s;
	const char *reason = NULL;

	assert_int_equal(selector_parse("upstream:upstream:class:0302", &s, &reason), -EINVAL);
	assert_string_equal(reason, "upstream: cannot be nested");
	assert_rejected("upstream:");
	assert_rejected("upstream:class:3");
}

static void test_selector_too_long(void **state)
{
	char text[SELECTOR_TEXT_MAX + 8];

	memset(text, '0', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	assert_rejected(text);
}

/* p2p:A~B and p2p:A: [ACS:*] only; A and B device selectors, matched separately. */
static void test_selector_p2p(void **state)
{
	static const char *const bad[] = { "p2p:",		  "p2p:~10de:*",
					   "p2p:10de:*~",	  "p2p:upstream:10de:*",
					   "p2p:10de:*~p2p:class:02", "p2p:a~b~c",
					   "upstream:p2p:10de:*" };
	struct pci_ident gpu = { .vendor = 0x10de, .device = 0x2330, .class_code = 0x030200 };
	struct pci_ident nic = { .vendor = 0x15b3, .device = 0x1021, .class_code = 0x020700 };
	struct selector s;
	const char *reason = NULL;
	char buf[SELECTOR_TEXT_MAX];

	(void)state;
	assert_int_equal(selector_parse("p2p:10de:*~class:02", &s, &reason), -EINVAL);
	assert_non_null(reason);
	assert_int_equal(selector_parse_acs("p2p:10de:*~class:02", &s, &reason), 0);
	assert_true(s.p2p && s.has_peer && !s.upstream);
	assert_true(selector_match_ident(&s, &gpu));
	assert_false(selector_match_ident(&s, &nic));
	assert_true(selector_match_peer(&s, &nic));
	assert_false(selector_match_peer(&s, &gpu));
	selector_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "p2p:10de:*~class:02");
	assert_int_equal(selector_parse_acs("p2p:0000:18:00.0", &s, &reason), 0);
	assert_true(s.p2p && !s.has_peer);
	selector_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "p2p:0000:18:00.0");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(selector_parse_acs(bad[i], &s, &reason), -EINVAL);
}

static void test_selector_format_round_trip(void **state)
{
	assert_format("3a:00.0", "0000:3a:00.0");
	assert_format("0000:3A:1F.7", "0000:3a:1f.7");
	assert_format("10000:e1:02.3", "10000:e1:02.3");
	assert_format("upstream:0000:1b:00.0", "upstream:0000:1b:00.0");
	assert_format("10B5:8796", "10b5:8796");
	assert_format("10b5:*", "10b5:*");
	assert_format("*:8796", "*:8796");
	assert_format("*:*", "*:*");
	assert_format("class:03", "class:03");
	assert_format("class:0302", "class:0302");
	assert_format("class:060400", "class:060400");
	assert_format("upstream:class:0302", "upstream:class:0302");
	assert_format("upstream:15b3:*", "upstream:15b3:*");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_address_parse),
		cmocka_unit_test(test_address_parse_bad),
		cmocka_unit_test(test_address_is_kernel),
		cmocka_unit_test(test_selector_address),
		cmocka_unit_test(test_selector_address_bad),
		cmocka_unit_test(test_selector_vendor_device),
		cmocka_unit_test(test_selector_vendor_device_bad),
		cmocka_unit_test(test_selector_class_prefixes),
		cmocka_unit_test(test_selector_class_bad),
		cmocka_unit_test(test_selector_upstream),
		cmocka_unit_test(test_selector_upstream_nested_rejected),
		cmocka_unit_test(test_selector_too_long),
		cmocka_unit_test(test_selector_format_round_trip),
		cmocka_unit_test(test_selector_p2p),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

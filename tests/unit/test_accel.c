// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The table of known accelerators (pci/accel.h) and the `accel` selector that reads it:
 * each family is found by vendor:device, at the edges of its ranges; QuickAssist, DSA,
 * IAA and client NPUs are not, in whichever class they come; a display controller of a
 * GPU vendor is only when listed (an AMD Radeon or a consumer Arc is no accelerator).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pci/accel.h"
#include "pci/selector.h"

static const struct pci_accel_id *find(uint16_t vendor, uint16_t device, uint32_t class_code)
{
	struct pci_ident id = { .vendor = vendor, .device = device, .class_code = class_code };

	return pci_accel_lookup(&id);
}

static void assert_family(uint16_t vendor, uint16_t device, uint32_t class_code, const char *name)
{
	const struct pci_accel_id *e = find(vendor, device, class_code);

	if (!e)
		fail_msg("%04x:%04x class %06x is not in the table", vendor, device, class_code);
	assert_string_equal(e->name, name);
}

static void assert_none(uint16_t vendor, uint16_t device, uint32_t class_code)
{
	const struct pci_accel_id *e = find(vendor, device, class_code);

	if (e)
		fail_msg("%04x:%04x class %06x taken as %s", vendor, device, class_code, e->name);
}

/* Every family the issue names, by the id its source gives, in its real class. */
static void test_families(void **state)
{
	assert_family(0x1da3, 0x1000, 0x120000, "Habana Gaudi");
	assert_family(0x1da3, 0x1010, 0x120000, "Habana Gaudi");
	assert_family(0x1da3, 0x1020, 0x120000, "Habana Gaudi2");
	assert_family(0x1da3, 0x1060, 0x120000, "Habana Gaudi 3 or later");
	assert_family(0x1da3, 0x0001, 0x120000, "Habana Goya");
	assert_family(0x1002, 0x6860, 0x038000, "AMD Instinct MI25");
	assert_family(0x1002, 0x66a1, 0x038000, "AMD Instinct MI50/MI60");
	assert_family(0x1002, 0x738c, 0x038000, "AMD Instinct MI100");
	assert_family(0x1002, 0x7408, 0x038000, "AMD Instinct MI250X");
	assert_family(0x1002, 0x740c, 0x038000, "AMD Instinct MI250/MI250X");
	assert_family(0x1002, 0x740f, 0x038000, "AMD Instinct MI210");
	assert_family(0x1002, 0x74a1, 0x120000, "AMD Instinct MI300 or later"); /* MI300X */
	assert_family(0x1002, 0x74a0, 0x120000, "AMD Instinct MI300 or later"); /* MI300A */
	assert_family(0x8086, 0x0bd5, 0x038000, "Intel Data Center GPU Max");
	assert_family(0x8086, 0x0bdb, 0x038000, "Intel Data Center GPU Max");
	assert_family(0x8086, 0x0bd0, 0x038000, "Intel Data Center GPU Max");
	assert_family(0x8086, 0x56c0, 0x038000, "Intel Data Center GPU Flex");
	assert_family(0x8086, 0x56c1, 0x038000, "Intel Data Center GPU Flex");
	assert_family(0x8086, 0x56b1, 0x030000, "Intel Arc Pro A");
	assert_family(0x8086, 0x56b3, 0x030000, "Intel Arc Pro A");
	assert_family(0x8086, 0xe223, 0x030000, "Intel Arc Pro B70");
	assert_family(0x8086, 0x2250, 0x0b4000, "Intel Xeon Phi");
	assert_family(0x1bcf, 0x001c, 0x0b4000, "NEC Vector Engine");
	assert_family(0x1e52, 0x401e, 0x120000, "Tenstorrent Wormhole");
	assert_family(0x17cb, 0xa100, 0x120000, "Qualcomm Cloud AI 100");
	assert_family(0x1d95, 0x0001, 0x120000, "Graphcore IPU");
}

/* Not accelerators, in either class QAT and its neighbours come in: no class match. */
static void test_not_accelerators(void **state)
{
	static const uint16_t qat[] = { 0x4940, 0x4941, 0x4942, 0x4943, 0x4944,
					0x4945, 0x4946, 0x4947, 0x0435, 0x0443,
					0x37c8, 0x37c9, 0x19e2, 0x18a0, 0x18ee };

	for (size_t i = 0; i < sizeof(qat) / sizeof(qat[0]); i++) {
		assert_none(0x8086, qat[i], 0x0b4000);
		assert_none(0x8086, qat[i], 0x120000);
	}
	assert_none(0x8086, 0x0b25, 0x088000); /* DSA */
	assert_none(0x8086, 0x0cfe, 0x088000); /* IAA */
	assert_none(0x8086, 0x7d1d, 0x120000); /* Meteor Lake NPU */
	assert_none(0x1022, 0x1502, 0x118000); /* Ryzen AI NPU */
	assert_none(0x1234, 0x5678, 0x120000); /* an unknown vendor's processing accelerator */
	assert_none(0x1234, 0x5678, 0x0b4000);
	/* AMD display GPUs not in the table: Radeon RX 7900 XTX, Radeon VII, Vega 64 */
	assert_none(0x1002, 0x744c, 0x030000);
	assert_none(0x1002, 0x66af, 0x030000);
	assert_none(0x1002, 0x687f, 0x030000);
	/* MI300's id in another class: only 1200 is amdgpu's class match */
	assert_none(0x1002, 0x74a1, 0x038000);
	/* the neighbours of listed AMD ids */
	assert_none(0x1002, 0x740e, 0x038000);
	assert_none(0x1002, 0x7410, 0x038000);
	assert_none(0x1002, 0x738d, 0x038000);
	/* consumer Arc (A770, A310), the ids around Arc Pro, PVC and BMG G31 */
	assert_none(0x8086, 0x56a0, 0x030000);
	assert_none(0x8086, 0x56a6, 0x030000);
	assert_none(0x8086, 0x56af, 0x030000);
	assert_none(0x8086, 0x56b4, 0x030000);
	assert_none(0x8086, 0x56bf, 0x030000);
	assert_none(0x8086, 0x56c2, 0x038000);
	assert_none(0x8086, 0x0bd1, 0x038000);
	assert_none(0x8086, 0x0bdc, 0x038000);
	assert_none(0x8086, 0xe20b, 0x030000); /* Arc B580, consumer */
	assert_none(0x8086, 0xe21f, 0x030000);
	assert_none(0x8086, 0xe224, 0x030000);
	/* NVIDIA is selected by class (0302), never by this table */
	assert_none(0x10de, 0x2330, 0x030200);
}

/* The documented corruption is the Arc Pro B70's: named there and nowhere else. */
static void test_p2p_risk(void **state)
{
	const struct pci_accel_id *arc = find(0x8086, 0xe220, 0x030000);

	assert_non_null(arc);
	assert_non_null(arc->p2p_risk);
	assert_non_null(strstr(arc->p2p_risk, "all-ones"));
	assert_non_null(strstr(arc->p2p_risk, "compute-runtime issue 935"));
	assert_null(find(0x1da3, 0x1020, 0x120000)->p2p_risk);
	assert_null(find(0x1002, 0x740f, 0x038000)->p2p_risk);
}

/* Every entry: a name, a vendor, an ordered range, found at both ends (first wins). */
static void test_table_shape(void **state)
{
	for (size_t i = 0; i < pci_accel_ids_n; i++) {
		const struct pci_accel_id *e = &pci_accel_ids[i];
		uint32_t cls = (uint32_t)(e->class_code ?: 0x0380) << 8;

		assert_true(e->device_first <= e->device_last && e->vendor != 0xffff && e->name);
		if (e->device_first == 0 && e->device_last == 0xffff)
			continue; /* a vendor's rest: the specific entries before it win */
		assert_ptr_equal(find(e->vendor, e->device_first, cls), e);
		assert_ptr_equal(find(e->vendor, e->device_last, cls), e);
	}
}

static struct selector parse(const char *text, bool acs)
{
	struct selector s;
	const char *reason = NULL;

	assert_int_equal(
		acs ? selector_parse_acs(text, &s, &reason) : selector_parse(text, &s, &reason), 0);
	return s;
}

/* `accel` as a selector, alone, below upstream: and on both sides of p2p: */
static void test_selector(void **state)
{
	struct pci_ident gaudi = { .vendor = 0x1da3, .device = 0x1020, .class_code = 0x120000 };
	struct pci_ident qat = { .vendor = 0x8086, .device = 0x4940, .class_code = 0x0b4000 };
	struct pci_ident cx7 = { .vendor = 0x15b3, .device = 0x1021, .class_code = 0x020700 };
	struct selector s = parse("accel", false);
	char buf[SELECTOR_TEXT_MAX];

	assert_int_equal(s.kind, SELECTOR_ACCEL);
	assert_true(selector_match_ident(&s, &gaudi));
	assert_false(selector_match_ident(&s, &qat));
	selector_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "accel");
	s = parse("upstream:accel", false);
	selector_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "upstream:accel");
	s = parse("p2p:accel~class:0207", true);
	assert_true(selector_match_ident(&s, &gaudi));
	assert_true(selector_match_peer(&s, &cx7));
	assert_false(selector_match_peer(&s, &gaudi));
	selector_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "p2p:accel~class:0207");
	s = parse("p2p:class:0302~accel", true);
	assert_true(selector_match_peer(&s, &gaudi));
	assert_false(selector_match_peer(&s, &qat));
	s = parse("p2p:accel", true);
	assert_true(selector_match_peer(&s, &gaudi));
	assert_false(selector_match_ident(&s, &cx7));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_families), cmocka_unit_test(test_not_accelerators),
		cmocka_unit_test(test_p2p_risk), cmocka_unit_test(test_table_shape),
		cmocka_unit_test(test_selector),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The module parsers (src/kmod/kmod-parse.c): /proc/modules lines, modinfo values,
 * modprobe.d lines, modules.builtin, the command line's module_blacklist=, OFED and kernel
 * versions. The input's first part is fed to each; a second part (after "\n%%%\n") is the
 * other side of the comparisons. Normalised names are normalised already, and the version
 * order is antisymmetric.
 */
#include "fuzz.h"
#include "kmod/kmod-parse.h"

static void check_names(const char *s)
{
	char name[KMOD_NAME_MAX + 1], again[KMOD_NAME_MAX + 1];
	char param[KMOD_PARAM_MAX + 1];
	const char *text;

	if (kmod_name_normalize(s, name) == 0) {
		fuzz_assert(strlen(name) <= KMOD_NAME_MAX && !strchr(name, '-'));
		fuzz_assert(kmod_name_normalize(name, again) == 0 && streq(name, again));
	}
	if (kmod_param_name_normalize(s, param) == 0)
		fuzz_assert(strlen(param) <= KMOD_PARAM_MAX);
	if (modinfo_name_value(s, param, &text) == 0)
		fuzz_assert(text >= s && text <= s + strlen(s));
	if (modprobe_blacklist_line(s, name) == 1)
		fuzz_assert(kmod_name_normalize(name, again) == 0 && streq(name, again));
}

static void check_proc(const char *s)
{
	struct proc_module m = {};
	enum kmod_live_state st;
	char b;

	if (proc_module_parse(s, &m) == 0) {
		fuzz_assert(m.state < _KMOD_STATE_MAX && m.users);
		fuzz_assert(memchr(m.taint, '\0', sizeof(m.taint)));
		proc_module_done(&m);
	}
	if (kmod_initstate_parse(s, &st) == 0)
		fuzz_assert(kmod_live_state_to_string(st));
	if (kmod_param_bool(s, &b) == 0)
		fuzz_assert(b == 'Y' || b == 'N');
	(void)kmod_param_value_valid(s);
	(void)kmod_path_kind(s);
	(void)ofed_version_valid(s);
	(void)kernel_at_least(s, 6, 11);
}

static void check_pair(const char *a, const char *b)
{
	int ab = ofed_version_cmp(a, b), ba = ofed_version_cmp(b, a);

	fuzz_assert((ab < 0) == (ba > 0) && (ab == 0) == (ba == 0));
	fuzz_assert(ofed_version_cmp(a, a) == 0);
	(void)kmod_list_has(a, b);
	(void)modules_builtin_has(a, b);
	(void)kmod_cmdline_blacklisted(a, b);
	for (const char *const *t = (const char *const[]){ "int", "uint", "bool", "charp",
							   "invbool", "ulong", "short", NULL };
	     *t; t++)
		(void)kmod_param_equal(*t, a, b);
	(void)kmod_param_equal(a, a, b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *pa, *pb = (const uint8_t *)"";
	size_t na, nb = 0;
	_cleanup_(freep) char *a = NULL, *b = NULL;

	fuzz_next_part(&data, &size, &pa, &na);
	fuzz_next_part(&data, &size, &pb, &nb);
	a = fuzz_strndup(pa, na);
	b = fuzz_strndup(pb, nb);
	check_names(a);
	check_proc(a);
	check_pair(a, b);
	return 0;
}

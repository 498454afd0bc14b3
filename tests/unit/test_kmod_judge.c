// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The decisions of module.* over plain data (kmod-judge.c, the pure walk of kmod-modprobe.c):
 * what only a live host would show (what libkmod will pass, initstate, refcnt, holders,
 * parameters) given by hand, every edge pinned.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>

#include "kmod/kmod-judge.h"

/* ---- values as the kernel takes them -------------------------------------------------- */

static void test_value_gives(void **state)
{
	static const char *const yes[] = { "Y", "y", "1", "yes", "on", "true", "TRUE", "On" };
	static const char *const no[] = { "N", "n", "0", "no", "off", "false" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		assert_true(kmod_param_value_gives("bool", yes[i], "Y"));
		assert_true(kmod_param_value_gives("bool", yes[i], "1"));
		assert_false(kmod_param_value_gives("bool", yes[i], "N"));
	}
	for (size_t i = 0; i < ARRAY_SIZE(no); i++) {
		assert_true(kmod_param_value_gives("bool", no[i], "N"));
		assert_false(kmod_param_value_gives("bool", no[i], "Y"));
	}
	/* whole words only: the kernel's first-character rule would take "16" as Y */
	assert_false(kmod_param_value_gives("bool", "16", "Y"));
	assert_false(kmod_param_value_gives("bool", "", "Y"));
	/* a bare key: param_set_bool(NULL) is "1"; any other type is refused (nothing set) */
	assert_true(kmod_param_value_gives("bool", NULL, "Y"));
	assert_false(kmod_param_value_gives("bool", NULL, "N"));
	assert_true(kmod_param_value_gives("invbool", NULL, "Y"));
	assert_false(kmod_param_value_gives("int", NULL, "1"));
	assert_false(kmod_param_value_gives("charp", NULL, "Y"));
	assert_false(kmod_param_value_gives(NULL, NULL, "Y"));
	assert_false(kmod_param_value_gives("", NULL, "Y"));
	/* integers by value, anything untyped exactly */
	assert_true(kmod_param_value_gives("uint", "0x10", "16"));
	assert_false(kmod_param_value_gives("uint", "0x10", "17"));
	assert_true(kmod_param_value_gives(NULL, "1", "1"));
	assert_false(kmod_param_value_gives(NULL, "Y", "1"));
	assert_true(kmod_param_value_gives("array of int", "1,0x2", "1,2"));
}

/* ---- the files in libkmod's order -------------------------------------------------------- */

enum { ETC, RUN, USR_LOCAL_LIB, USR_LIB, LIB };

static void add(struct modprobe_files *f, size_t dir, const char *name, const char *text)
{
	assert_int_equal(
		modprobe_files_add(f, dir, name, text ? strdup(text) : NULL, text ? 0 : -EACCES),
		0);
}

static void test_names(void **state)
{
	assert_true(modprobe_name_wanted("a.conf"));
	assert_true(modprobe_name_wanted("a.alias"));
	assert_true(modprobe_name_wanted("x.conf"));
	assert_false(modprobe_name_wanted(".conf"));
	assert_false(modprobe_name_wanted(".hidden.conf"));
	assert_false(modprobe_name_wanted("a.conf~"));
	assert_false(modprobe_name_wanted("a.txt"));
	assert_false(modprobe_name_wanted("conf"));
}

/* Every ordered pair of directories: the earlier one's file masks the later one's, added in
 * either order; the list is sorted by name whatever the directory. */
static void test_masking(void **state)
{
	for (size_t a = 0; a < MODPROBE_DIRS_N; a++)
		for (size_t b = 0; b < MODPROBE_DIRS_N; b++) {
			struct modprobe_files f = {};

			if (a == b)
				continue;
			add(&f, a, "x.conf", "a");
			add(&f, b, "x.conf", "b");
			assert_int_equal(f.n, 1);
			assert_int_equal(f.v[0].dir, a < b ? a : b);
			assert_string_equal(f.v[0].text, a < b ? "a" : "b");
			modprobe_files_done(&f);
		}
}

static void test_order(void **state)
{
	struct modprobe_files f = {};

	add(&f, LIB, "mlnx.conf", "");
	add(&f, ETC, "zz-site.conf", "");
	add(&f, USR_LIB, "aa.conf", "");
	add(&f, RUN, "m.alias", "");
	add(&f, ETC, "hostprep.conf", "");
	add(&f, USR_LOCAL_LIB, "zz-site.conf", ""); /* masked by /etc's */
	modprobe_files_sort(&f);
	assert_int_equal(f.n, 5);
	assert_string_equal(f.v[0].name, "aa.conf");
	assert_string_equal(f.v[1].name, "hostprep.conf");
	assert_string_equal(f.v[2].name, "m.alias");
	assert_string_equal(f.v[3].name, "mlnx.conf");
	assert_string_equal(f.v[4].name, "zz-site.conf");
	assert_int_equal(f.v[4].dir, ETC);
	modprobe_files_done(&f);
}

/* ---- what the next load gets ------------------------------------------------------------ */

struct walk {
	struct modprobe_files files;
	struct cmdline cl;
	struct modprobe_eval e;
};

static void walk(struct walk *w, const char *cmdline)
{
	modprobe_files_sort(&w->files);
	assert_int_equal(cmdline_parse(cmdline ? cmdline : "root=/dev/vda1", &w->cl), 0);
	assert_int_equal(modprobe_eval_files(&w->files, &w->cl, "erdma", &w->e), 0);
}

static void walk_done(struct walk *w)
{
	modprobe_eval_done(&w->e);
	modprobe_files_done(&w->files);
	cmdline_done(&w->cl);
}

static void key_is(const struct walk *w, bool without, enum persist_hold hold, const char *where,
		   bool by_hostprep)
{
	struct persist_key k;

	persist_key_judge(&w->e, without, "compat_mode", "bool", "Y", &k);
	assert_int_equal(k.hold, hold);
	if (!where) {
		assert_null(k.by);
		return;
	}
	assert_string_equal(k.by->where, where);
	assert_int_equal(k.by_hostprep, by_hostprep);
}

static void test_last_wins(void **state)
{
	struct walk w = {};

	add(&w.files, ETC, "erdma.conf",
	    "softdep erdma pre: ib_uverbs\noptions erdma compat_mode=Y\n");
	add(&w.files, ETC, "hostprep.conf", "options erdma compat_mode=N\n");
	add(&w.files, USR_LIB, "zz.conf", "options erdma other=1\n");
	walk(&w, NULL);
	/* hostprep.conf sorts after erdma.conf: its N wins; without it erdma.conf's Y does */
	key_is(&w, false, PERSIST_DIFFERS, "/etc/modprobe.d/hostprep.conf:1", true);
	key_is(&w, true, PERSIST_GIVES, "/etc/modprobe.d/erdma.conf:2", false);
	walk_done(&w);

	/* the command line comes last of all; a bare bool key is Y */
	add(&w.files, ETC, "zz.conf", "options erdma compat_mode=Y\n");
	walk(&w, "root=/dev/vda1 erdma.compat_mode=0");
	key_is(&w, false, PERSIST_DIFFERS, "the kernel command line", false);
	walk_done(&w);
	walk(&w, "erdma.compat_mode");
	key_is(&w, true, PERSIST_GIVES, "the kernel command line", false);
	walk_done(&w);

	/* nothing sets it */
	add(&w.files, ETC, "erdma.conf", "options other_mod compat_mode=Y\n");
	walk(&w, NULL);
	key_is(&w, false, PERSIST_ABSENT, NULL, false);
	walk_done(&w);
}

/* A name in /etc masks the same name in /run, /usr/local/lib, /usr/lib and /lib: masked
 * options never count, even when they are the only ones. */
static void test_masked_options(void **state)
{
	static const char *const later[] = { "/run/modprobe.d", "/usr/local/lib/modprobe.d",
					     "/usr/lib/modprobe.d", "/lib/modprobe.d" };

	for (size_t d = RUN; d <= LIB; d++) {
		struct walk w = {};
		char where[64];

		snprintf(where, sizeof(where), "%s/erdma.conf:1", later[d - 1]);
		add(&w.files, d, "erdma.conf", "options erdma compat_mode=Y\n");
		walk(&w, NULL);
		key_is(&w, true, PERSIST_GIVES, where, false);
		walk_done(&w);

		add(&w.files, d, "erdma.conf", "options erdma compat_mode=Y\n");
		add(&w.files, ETC, "erdma.conf", "# masks the packaged file\n");
		walk(&w, NULL);
		key_is(&w, true, PERSIST_ABSENT, NULL, false);
		walk_done(&w);
	}
}

static void test_from_hostprep(void **state)
{
	struct modprobe_opt o = {};
	static const char *const yes[] = { "/etc/modprobe.d/hostprep.conf:1",
					   "/usr/lib/modprobe.d/hostprep.conf:12" };
	static const char *const no[] = { "/etc/modprobe.d/zz-hostprep.conf:1",
					  "/etc/modprobe.d/hostprep.conf.d:1",
					  "the kernel command line", "hostprep.conf:1",
					  "/etc/modprobe.d/hostprep.conf" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		o.where = (char *)yes[i];
		assert_true(modprobe_opt_from_hostprep(&o));
	}
	for (size_t i = 0; i < ARRAY_SIZE(no); i++) {
		o.where = (char *)no[i];
		assert_false(modprobe_opt_from_hostprep(&o));
	}
}

static struct kmod_rule *erdma_rule(size_t n_params, ...)
{
	struct kmod_rule *r = calloc(1, sizeof(*r));
	va_list ap;

	strcpy(r->name, "erdma");
	r->require.on = r->enabled.on = true;
	r->params = calloc(n_params + 1, sizeof(*r->params));
	va_start(ap, n_params);
	for (size_t i = 0; i < n_params; i++) {
		strcpy(r->params[i].key, va_arg(ap, const char *));
		r->params[i].value = strdup(va_arg(ap, const char *));
	}
	va_end(ap);
	r->n_params = n_params;
	return r;
}

static void rule_free(struct kmod_rule *r)
{
	for (size_t i = 0; i < r->n_params; i++)
		free(r->params[i].value);
	free(r->params);
	free(r);
}

static void elsewhere_is(struct walk *w, const char *cmdline, const struct kmod_rule *rule,
			 const char *const *types, const char *want)
{
	char *got = NULL;

	walk(w, cmdline);
	assert_int_equal(persist_set_elsewhere(&w->e, rule, types, &got), 0);
	if (want)
		assert_string_equal(got, want);
	else
		assert_null(got);
	free(got);
	walk_done(w);
}

static void test_set_elsewhere(void **state)
{
	struct kmod_rule *one = erdma_rule(1, "compat_mode", "Y");
	struct kmod_rule *two = erdma_rule(2, "compat_mode", "Y", "debug", "16");
	static const char *const bool_t[] = { "bool", NULL };
	static const char *const types[] = { "bool", "uint" };
	struct walk w = {};

	/* the eRDMA package's file: named, whatever hostprep.conf says */
	add(&w.files, ETC, "erdma.conf", "options erdma compat_mode=1\n");
	add(&w.files, ETC, "hostprep.conf", "options erdma compat_mode=N\n");
	elsewhere_is(&w, NULL, one, bool_t, "compat_mode=1 from /etc/modprobe.d/erdma.conf:1");
	/* without the type, "1" is not "Y" */
	add(&w.files, ETC, "erdma.conf", "options erdma compat_mode=1\n");
	elsewhere_is(&w, NULL, one, NULL, NULL);
	/* only hostprep.conf gives it: the line stays hostprep's */
	add(&w.files, ETC, "hostprep.conf", "options erdma compat_mode=Y\n");
	elsewhere_is(&w, NULL, one, bool_t, NULL);
	/* a later file takes it back */
	add(&w.files, ETC, "erdma.conf", "options erdma compat_mode=Y\n");
	add(&w.files, LIB, "zz.conf", "options erdma compat_mode=N\n");
	elsewhere_is(&w, NULL, one, bool_t, NULL);
	/* the command line gives it */
	elsewhere_is(&w, "quiet erdma.compat_mode=Y", one, bool_t,
		     "compat_mode=Y from the kernel command line");
	/* every value must be given; each is named where it comes from */
	add(&w.files, ETC, "erdma.conf", "options erdma compat_mode=Y\n");
	elsewhere_is(&w, NULL, two, types, NULL);
	add(&w.files, ETC, "erdma.conf", "options erdma compat_mode=Y\n");
	elsewhere_is(&w, "erdma.debug=0x10", two, types,
		     "compat_mode=Y from /etc/modprobe.d/erdma.conf:1, debug=0x10 from the kernel "
		     "command line");
	/* a file that cannot be read: unknown, never "given" */
	add(&w.files, ETC, "erdma.conf", "options erdma compat_mode=Y\n");
	add(&w.files, RUN, "site.conf", NULL);
	elsewhere_is(&w, NULL, one, bool_t, NULL);
	rule_free(one);
	rule_free(two);
}

static void test_unreadable(void **state)
{
	struct walk w = {};

	add(&w.files, USR_LIB, "b.conf", NULL);
	add(&w.files, RUN, "a.conf", NULL);
	walk(&w, NULL);
	assert_string_equal(w.e.unreadable, "/run/modprobe.d/a.conf"); /* the first one read */
	assert_int_equal(w.e.unreadable_err, -EACCES);
	walk_done(&w);
}

/* ---- libkmod, the oracle ---------------------------------------------------------------- */

static void test_oracle(void **state)
{
	struct modprobe_eval e = { .files_options = (char *)"compat_mode=Y",
				   .options = (char *)"compat_mode=Y compat_mode=N" };
	struct modprobe_eval none = { .files_options = (char *)"", .options = (char *)"" };
	char *v = NULL;

	/* the host: the whole string, the command line included */
	assert_true(persist_oracle_agrees(true, &e, "compat_mode=Y compat_mode=N"));
	assert_false(persist_oracle_agrees(true, &e, "compat_mode=Y"));
	/* under --root: libkmod appends the running kernel's command line, not the tree's */
	assert_true(persist_oracle_agrees(false, &e, "compat_mode=Y"));
	assert_true(persist_oracle_agrees(false, &e, "compat_mode=Y foo=1"));
	assert_false(persist_oracle_agrees(false, &e, "compat_mode=YES"));
	assert_false(persist_oracle_agrees(false, &e, ""));
	assert_true(persist_oracle_agrees(false, &none, "anything=1"));
	assert_true(persist_oracle_agrees(true, &none, ""));

	assert_int_equal(persist_libkmod_gives("compat_mode=N compat_mode=Y", "compat_mode", "bool",
					       "Y", &v),
			 1);
	assert_string_equal(v, "Y");
	free(v);
	assert_int_equal(persist_libkmod_gives("compat_mode=Y compat_mode=0", "compat_mode", "bool",
					       "Y", &v),
			 0);
	assert_string_equal(v, "0");
	free(v);
	assert_int_equal(persist_libkmod_gives("compat_mode", "compat_mode", "bool", "Y", &v), 1);
	free(v);
	assert_int_equal(persist_libkmod_gives("other=1", "compat_mode", "bool", "Y", &v), 0);
	assert_null(v);
	assert_int_equal(persist_libkmod_gives("", "compat_mode", "bool", "Y", &v), 0);
	assert_null(v);
}

/* ---- state, parameters, users ---------------------------------------------------------- */

struct seen_fx {
	struct kmod_rule *rule;
	struct kmod_seen s;
	char *names[2], *types[2];
	char *have[2];
	int err[2];
};

/* erdma with compat_mode (declared bool unless undeclared), running value have. */
static void seen_fx(struct seen_fx *f, enum kmod_state st, bool declared, const char *have, int err)
{
	*f = (struct seen_fx){ .rule = erdma_rule(1, "compat_mode", "Y") };
	f->names[0] = declared ? (char *)"compat_mode" : NULL;
	f->types[0] = declared ? (char *)"bool" : NULL;
	f->have[0] = (char *)have;
	f->err[0] = err;
	f->s = (struct kmod_seen){ .rule = f->rule, .state = st, .refcnt = 0 };
	f->s.file = (struct kmod_file_info){ .parm_names = f->names,
					     .parm_types = f->types,
					     .n_parms = declared };
	f->s.param_have = f->have;
	f->s.param_err = f->err;
}

static void test_state_verdict(void **state)
{
	static const struct {
		enum kmod_state st;
		bool require;
		enum verdict v;
	} t[] = {
		{ KS_BUILTIN, true, VERDICT_PASS },	   { KS_LIVE, true, VERDICT_PASS },
		{ KS_COMING, true, VERDICT_FAIL },	   { KS_GOING, true, VERDICT_FAIL },
		{ KS_NOT_LOADED, true, VERDICT_FAIL },	   { KS_NOT_INSTALLED, true, VERDICT_FAIL },
		{ KS_UNKNOWN, true, VERDICT_UNKNOWN },	   { KS_LIVE, false, VERDICT_PASS },
		{ KS_NOT_LOADED, false, VERDICT_SKIP },	   { KS_UNKNOWN, false, VERDICT_SKIP },
		{ KS_NOT_INSTALLED, false, VERDICT_SKIP },
	};

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct seen_fx f;

		seen_fx(&f, t[i].st, true, "Y", 0);
		f.rule->require.on = t[i].require;
		assert_int_equal(kmod_state_verdict(&f.s), t[i].v);
		rule_free(f.rule);
	}
}

static void test_param_judge(void **state)
{
	static const struct {
		enum kmod_state st;
		bool declared;
		const char *have;
		enum kmod_param_judgement j;
	} t[] = {
		{ KS_NOT_LOADED, true, NULL, KP_NOT_LOADED },
		{ KS_COMING, true, "Y", KP_NOT_LOADED },
		{ KS_LIVE, false, NULL, KP_MISSING },	/* mainline erdma */
		{ KS_BUILTIN, true, NULL, KP_MISSING }, /* a builtin shows what it has */
		{ KS_LIVE, true, NULL, KP_UNREADABLE },
		{ KS_LIVE, true, "Y", KP_OK },
		{ KS_LIVE, true, "1", KP_OK }, /* bool forms */
		{ KS_LIVE, true, "N", KP_WRONG },
		{ KS_LIVE, true, "16", KP_WRONG },
		{ KS_LIVE, false, "Y", KP_OK }, /* undeclared but shown: exact */
		{ KS_LIVE, false, "1", KP_WRONG },
		{ KS_BUILTIN, true, "Y", KP_OK },
	};

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct seen_fx f;

		seen_fx(&f, t[i].st, t[i].declared, t[i].have, t[i].have ? 0 : -ENOENT);
		assert_int_equal(kmod_param_judge(&f.s, 0), t[i].j);
		rule_free(f.rule);
	}
}

static void test_reload_fixes(void **state)
{
	static const struct {
		enum kmod_state st;
		enum kmod_reload reload;
		bool declared;
		const char *have;
		bool fixes;
	} t[] = {
		{ KS_LIVE, KMOD_RELOAD_UNUSED, true, "N", true },
		{ KS_LIVE, KMOD_RELOAD_NEVER, true, "N", false },
		{ KS_LIVE, KMOD_RELOAD_UNUSED, true, "Y", false },   /* nothing wrong */
		{ KS_LIVE, KMOD_RELOAD_UNUSED, false, NULL, false }, /* the file lacks it */
		{ KS_BUILTIN, KMOD_RELOAD_UNUSED, true, "N", false },
		{ KS_COMING, KMOD_RELOAD_UNUSED, true, "N", false },
		{ KS_LIVE, KMOD_RELOAD_UNUSED, true, NULL, true }, /* unreadable but declared */
	};

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct seen_fx f;

		seen_fx(&f, t[i].st, t[i].declared, t[i].have, 0);
		f.rule->reload = t[i].reload;
		assert_int_equal(kmod_reload_fixes(&f.s), t[i].fixes);
		rule_free(f.rule);
	}
}

static void test_users(void **state)
{
	struct kmod_rdma_dev devs[] = {
		{ .name = (char *)"erdma_0",
		  .module = (char *)"erdma",
		  .uverbs = (char *)"uverbs0" },
		{ .name = (char *)"mlx5_0",
		  .module = (char *)"mlx5_core",
		  .uverbs = (char *)"uverbs1" },
	};
	struct kmod_user users[] = {
		{ .pid = 4242, .comm = "ib_send_bw", .node = (char *)"/dev/infiniband/uverbs0" },
		{ .pid = 7, .comm = "other", .node = (char *)"/dev/infiniband/uverbs1" },
		{ .pid = 8, .comm = "cm", .node = (char *)"/dev/infiniband/rdma_cm" },
	};
	struct kmod_host h = { .devs = devs, .n_devs = 2, .users = users, .n_users = 3 };
	struct seen_fx f;
	char *d;

	seen_fx(&f, KS_LIVE, true, "N", 0);
	d = kmod_users_describe(&h, &f.s);
	assert_string_equal(d, "pid 4242 (ib_send_bw) holds /dev/infiniband/uverbs0");
	free(d);
	f.s.refcnt = 2;
	f.s.holders = (char *)"rdma_ucm";
	d = kmod_users_describe(&h, &f.s);
	assert_string_equal(d, "refcnt 2, holders rdma_ucm, pid 4242 (ib_send_bw) holds "
			       "/dev/infiniband/uverbs0");
	free(d);
	h.n_users = 0;
	f.s.refcnt = -1; /* no unload support: not a user */
	f.s.holders = (char *)"";
	d = kmod_users_describe(&h, &f.s);
	assert_string_equal(d, "");
	free(d);
	rule_free(f.rule);
}

/* ---- module.devices --------------------------------------------------------------------- */

static void devices(const struct kmod_host *h, bool dev, bool cm, enum verdict v,
		    const char *actual, const char *remedy_has, const char *remedy_lacks)
{
	struct kmod_rule *rule = erdma_rule(0);
	struct kmod_judgement j;

	rule->devices.on = dev;
	rule->rdmacm.on = cm;
	assert_int_equal(kmod_devices_judge(h, rule, &j), 0);
	assert_int_equal(j.verdict, v);
	assert_string_equal(j.actual, actual);
	if (v == VERDICT_PASS)
		assert_null(j.remedy);
	if (remedy_has && !strstr(j.remedy, remedy_has))
		fail_msg("remedy \"%s\" lacks \"%s\"", j.remedy, remedy_has);
	if (remedy_lacks && j.remedy && strstr(j.remedy, remedy_lacks))
		fail_msg("remedy \"%s\" has \"%s\"", j.remedy, remedy_lacks);
	kmod_judgement_done(&j);
	rule_free(rule);
}

static void test_devices(void **state)
{
	struct kmod_rdma_dev devs[] = {
		{ .name = (char *)"erdma_0",
		  .module = (char *)"erdma",
		  .uverbs = (char *)"uverbs0",
		  .node = true },
		{ .name = (char *)"mlx5_0", .module = (char *)"mlx5_core" },
	};
	struct kmod_host h = {
		.devs = devs, .n_devs = 2, .uverbs_state = KS_LIVE, .ucm_state = KS_NOT_LOADED
	};

	/* NCCL's eRDMA VM: uverbs and its node, no rdma_cm: ready unless RdmaCM=yes */
	devices(&h, true, false, VERDICT_PASS, "erdma_0 (uverbs0)", NULL, NULL);
	devices(&h, true, true, VERDICT_FAIL, "erdma_0 (uverbs0); no rdma_cm node",
		"load rdma_ucm (modprobe rdma_ucm, or [Module:rdma_ucm] Load=yes)", "ib_uverbs");
	devices(&h, false, true, VERDICT_FAIL, "no rdma_cm node", "load rdma_ucm", "ib_uverbs");
	h.ucm_state = KS_LIVE;
	devices(&h, true, true, VERDICT_FAIL, "erdma_0 (uverbs0); no rdma_cm node",
		"rdma_ucm is loaded but /dev/infiniband/rdma_cm is missing", "load rdma_ucm");
	h.rdma_cm_node = true;
	devices(&h, true, true, VERDICT_PASS, "erdma_0 (uverbs0); rdma_cm node present", NULL,
		NULL);
	devices(&h, false, true, VERDICT_PASS, "rdma_cm node present", NULL, NULL);

	/* the node is missing although the kernel registered uverbs0: never "load ib_uverbs" */
	devs[0].node = false;
	devices(&h, true, false, VERDICT_FAIL, "erdma_0 (uverbs0, node missing)",
		"/dev/infiniband/uverbs0: registered by the kernel but missing in /dev",
		"load ib_uverbs");
	/* no uverbs device: ib_uverbs live → not "load ib_uverbs"; not loaded → load it */
	devs[0].uverbs = NULL;
	devices(&h, true, false, VERDICT_FAIL, "erdma_0 (no uverbs device)",
		"ib_uverbs is loaded but made no uverbs device for erdma_0", "load ib_uverbs");
	h.uverbs_state = KS_BUILTIN;
	devices(&h, true, false, VERDICT_FAIL, "erdma_0 (no uverbs device)",
		"ib_uverbs is loaded but made no uverbs device", "load ib_uverbs");
	h.uverbs_state = KS_NOT_LOADED;
	devices(&h, true, false, VERDICT_FAIL, "erdma_0 (no uverbs device)",
		"load ib_uverbs (modprobe ib_uverbs, or [Module:ib_uverbs] Load=yes)", "is loaded");
	h.uverbs_state = KS_UNKNOWN;
	devices(&h, true, false, VERDICT_FAIL, "erdma_0 (no uverbs device)",
		"find out whether ib_uverbs is loaded", "load ib_uverbs");
	/* no device at all: the driver's probe, nothing about modules */
	h.n_devs = 0;
	devices(&h, true, false, VERDICT_FAIL, "no RDMA device", "read its probe errors",
		"modprobe");
	/* each missing thing once, joined */
	h.rdma_cm_node = false;
	h.ucm_state = KS_NOT_LOADED;
	devices(&h, true, true, VERDICT_FAIL, "no RDMA device; no rdma_cm node",
		"probe errors (journalctl -k); load rdma_ucm", NULL);
}

static void test_expected(void **state)
{
	struct kmod_rule r = {};

	r.devices.on = true;
	assert_string_equal(kmod_devices_expected(&r), "RDMA devices with uverbs nodes");
	r.rdmacm.on = true;
	assert_string_equal(kmod_devices_expected(&r),
			    "RDMA devices with uverbs nodes, and rdma_cm");
	r.devices.on = false;
	assert_string_equal(kmod_devices_expected(&r), "the rdma_cm node");
}

/* ---- remedies that depend on what is on disk ------------------------------------------- */

static void has(const char *s, const char *part, bool want)
{
	if (!!strstr(s, part) != want)
		fail_msg("\"%s\" %s \"%s\"", s, want ? "lacks" : "has", part);
}

static void test_origin_remedy(void **state)
{
	struct seen_fx f;
	char *r = NULL;

	seen_fx(&f, KS_LIVE, true, "Y", 0);
	/* want OFED: the file on disk is OFED's (depends on mlx_compat) → reload, not install */
	f.s.file.depends = (char *)"mlx_compat,ib_core";
	assert_int_equal(kmod_origin_remedy(&f.s, "updates/dkms/x.ko", KMOD_ORIGIN_OFED, &r), 0);
	has(r, "the file on disk is OFED's (updates/dkms/x.ko): reload the stack", true);
	has(r, "install", false);
	free(r);
	/* the file is the kernel's own: install OFED */
	f.s.file.depends = (char *)"ib_core";
	assert_int_equal(kmod_origin_remedy(&f.s, "kernel/drivers/x.ko", KMOD_ORIGIN_OFED, &r), 0);
	has(r, "install MLNX_OFED's erdma", true);
	free(r);
	/* want inbox: the file is the kernel's own → reload; out-of-tree on disk → remove it */
	assert_int_equal(kmod_origin_remedy(&f.s, "kernel/drivers/x.ko", KMOD_ORIGIN_INBOX, &r), 0);
	has(r, "the file on disk is the kernel's own (kernel/drivers/x.ko): reload erdma", true);
	has(r, "remove", false);
	free(r);
	assert_int_equal(kmod_origin_remedy(&f.s, "updates/erdma.ko", KMOD_ORIGIN_INBOX, &r), 0);
	has(r, "remove the out-of-tree erdma", true);
	free(r);
	f.s.file.depends = (char *)"mlx_compat";
	assert_int_equal(kmod_origin_remedy(&f.s, "kernel/drivers/x.ko", KMOD_ORIGIN_INBOX, &r), 0);
	has(r, "remove the out-of-tree erdma", true); /* OFED's file is no inbox one */
	free(r);
	/* no file at all */
	f.s.file_err = -ENOENT;
	assert_int_equal(kmod_origin_remedy(&f.s, "", KMOD_ORIGIN_OFED, &r), 0);
	has(r, "install MLNX_OFED's erdma", true);
	free(r);
	rule_free(f.rule);
}

static void test_version_remedy(void **state)
{
	struct seen_fx f;

	seen_fx(&f, KS_LIVE, true, "Y", 0);
	f.rule->min_version = (char *)"24.10-1.1.4";
	f.s.version = (char *)"23.10-1.1.9";
	f.s.file.version = (char *)"24.10-1.1.4";
	has(kmod_version_remedy(&f.s, false, true), "the file on disk has a good version: reload",
	    true);
	has(kmod_version_remedy(&f.s, false, true), "install", false);
	has(kmod_version_remedy(&f.s, true, true), "module.stack", true);
	f.s.file.version = (char *)"24.04-0.6.6";
	has(kmod_version_remedy(&f.s, false, true), "install MLNX_OFED >= the minimum", true);
	f.s.file.version = NULL;
	has(kmod_version_remedy(&f.s, false, true), "install MLNX_OFED >= the minimum", true);
	f.s.version = NULL; /* no version field running */
	has(kmod_version_remedy(&f.s, false, true), "its mlx5_core carries the version", true);
	f.s.file.version = (char *)"25.01-0.1.1";
	has(kmod_version_remedy(&f.s, false, true), "the file on disk has a good version", true);
	/* not loaded: judged on the file, which is what install changes */
	has(kmod_version_remedy(&f.s, false, false), "install MLNX_OFED >= the minimum", true);
	f.rule->min_version = NULL;
	rule_free(f.rule);
}

static void test_gpudirect_remedy(void **state)
{
	struct gpudirect_facts g = { .kernel_ok = true, .nvidia = 0 };
	char *r = NULL;

	assert_int_equal(kmod_gpudirect_remedy(&g, GPUDIRECT_PEERMEM, &r), 0);
	has(r, "load nvidia_peermem", true);
	free(r);
	g.peermem_live = true; /* loaded, not registered: never "load" it */
	assert_int_equal(kmod_gpudirect_remedy(&g, GPUDIRECT_PEERMEM, &r), 0);
	has(r, "nvidia_peermem is loaded but not registered", true);
	has(r, "load nvidia_peermem (needs", false);
	free(r);
	assert_int_equal(kmod_gpudirect_remedy(&g, GPUDIRECT_DMABUF, &r), 0);
	assert_string_equal(r, "install NVIDIA's open kernel module (nvidia-open)");
	free(r);
	g.kernel_ok = false;
	assert_int_equal(kmod_gpudirect_remedy(&g, GPUDIRECT_DMABUF, &r), 0);
	assert_string_equal(
		r, "install NVIDIA's open kernel module (nvidia-open) and a kernel >= 5.12");
	free(r);
	g.nvidia = 1; /* the open module is there: only the kernel */
	assert_int_equal(kmod_gpudirect_remedy(&g, GPUDIRECT_DMABUF, &r), 0);
	assert_string_equal(r, "boot a kernel >= 5.12 (DMA-BUF)");
	free(r);
	assert_int_equal(kmod_gpudirect_remedy(&g, GPUDIRECT_EITHER, &r), 0);
	has(r, "nvidia_peermem is loaded but not registered", true);
	has(r, "; or, for DMA-BUF, boot a kernel >= 5.12", true);
	has(r, "nvidia-open", false);
	free(r);
	g.nvidia = -1;
	g.kernel_ok = true;
	assert_int_equal(kmod_gpudirect_remedy(&g, GPUDIRECT_DMABUF, &r), 0);
	assert_string_equal(r, "install NVIDIA's open kernel module (nvidia-open)");
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value_gives),	 cmocka_unit_test(test_names),
		cmocka_unit_test(test_masking),		 cmocka_unit_test(test_order),
		cmocka_unit_test(test_last_wins),	 cmocka_unit_test(test_masked_options),
		cmocka_unit_test(test_from_hostprep),	 cmocka_unit_test(test_set_elsewhere),
		cmocka_unit_test(test_unreadable),	 cmocka_unit_test(test_oracle),
		cmocka_unit_test(test_state_verdict),	 cmocka_unit_test(test_param_judge),
		cmocka_unit_test(test_reload_fixes),	 cmocka_unit_test(test_users),
		cmocka_unit_test(test_devices),		 cmocka_unit_test(test_expected),
		cmocka_unit_test(test_origin_remedy),	 cmocka_unit_test(test_version_remedy),
		cmocka_unit_test(test_gpudirect_remedy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * config_load() against scratch trees under a root prefix: search order,
 * drop-in merging, strictness (every error with its file:line) and the dump.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "acs/acs-config.h"
#include "aer/aer.h"
#include "gpu/gpu.h"
#include "inventory/inventory-config.h"
#include "run/config.h"
#include "core/log.h"
#include "iommu/iommu-config.h"
#include "topo/links-config.h"
#include "topo/topo.h"
#include "xid/xid.h"

#define MAIN_USR   "usr/lib/hostprep/hostprep.conf"
#define MAIN_ETC   "etc/hostprep/hostprep.conf"
#define DROPIN_USR "usr/lib/hostprep/hostprep.conf.d/"
#define DROPIN_RUN "run/hostprep/hostprep.conf.d/"
#define DROPIN_ETC "etc/hostprep/hostprep.conf.d/"

struct fixture {
	char dir[64];
	struct sysroot root;
	struct config c;
	char *err; /* what config_load wrote to stderr */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	umask(022);
	strcpy(f->dir, "/tmp/hostprep-test-config-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	assert_int_equal(sysroot_init(&f->root, f->dir), 0);
	*state = f;
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	config_done(&f->c);
	nftw(f->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	sysroot_done(&f->root);
	free(f->err);
	free(f);
	return 0;
}

static char *tree_path(struct fixture *f, const char *rel)
{
	char *p;

	assert_true(asprintf(&p, "%s/%s", f->dir, rel) > 0);
	return p;
}

static void mkdir_parents(const char *path)
{
	char *dir = strdup(path);
	int bad = 0;

	assert_non_null(dir);
	for (size_t i = 1; dir[i]; i++) {
		if (dir[i] != '/')
			continue;
		dir[i] = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			bad++;
		dir[i] = '/';
	}
	free(dir);
	assert_int_equal(bad, 0);
}

static void write_file(struct fixture *f, const char *rel, const char *content)
{
	char *path = tree_path(f, rel);
	FILE *fp;

	mkdir_parents(path);
	fp = fopen(path, "we");
	assert_non_null(fp);
	assert_int_equal(fputs(content, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
	free(path);
}

static void chmod_rel(struct fixture *f, const char *rel, mode_t mode)
{
	char *path = tree_path(f, rel);

	assert_int_equal(chmod(path, mode), 0);
	free(path);
}

/*
 * config_load with fd 2 redirected to a temp file, kept in f->err. A test may load
 * several configs in turn: the last one is freed first (config_load starts from a zeroed
 * config and config_done leaves one).
 */
static int load(struct fixture *f, char *const *files, unsigned flags)
{
	FILE *tmp = tmpfile();
	int saved, r;
	long n;

	config_done(&f->c);
	assert_non_null(tmp);
	fflush(stderr);
	saved = dup(2);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(tmp), 2) >= 0);
	r = config_load(&f->c, &f->root, files, flags);
	fflush(stderr);
	assert_true(dup2(saved, 2) >= 0);
	close(saved);
	n = ftell(tmp);
	assert_true(n >= 0);
	free(f->err);
	f->err = calloc(1, n + 1);
	assert_non_null(f->err);
	rewind(tmp);
	assert_int_equal(fread(f->err, 1, n, tmp), (size_t)n);
	fclose(tmp);
	return r;
}

static unsigned count_lines(const char *s)
{
	unsigned n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* The message for <root>/<rel>:<line>: must be in stderr, with reason in it. */
static void assert_error_at(struct fixture *f, const char *rel, unsigned line, const char *reason)
{
	char *want, *hit;

	if (line) /* line 0: a problem with the file as a whole, "file: reason" */
		assert_true(asprintf(&want, "hostprep: %s/%s:%u: ", f->dir, rel, line) > 0);
	else
		assert_true(asprintf(&want, "hostprep: %s/%s: ", f->dir, rel) > 0);
	hit = strstr(f->err, want);
	if (!hit || !strstr(hit, reason) || strchr(hit, '\n') < strstr(hit, reason))
		fail_msg("expected '%s...%s' in stderr:\n%s", want, reason, f->err);
	free(want);
}

static void assert_origin(struct fixture *f, const struct origin *at, const char *rel,
			  unsigned line)
{
	assert_non_null(at->file);
	assert_string_equal(at->file + strlen(f->dir) + 1, rel);
	assert_int_equal(at->line, line);
}

/*
 * config_digest: SHA-256 over name (without the root), NUL, size (8 bytes LE), bytes, for
 * each file in parse order. The expected values were computed with Python's hashlib over
 * that framing, not with this code.
 */
static void test_digest_known_answer(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC, "[Host]\nApply=no\n");
	assert_int_equal(load(f, NULL, 0), 0);
	assert_string_equal(f->c.digest,
			    "2e6c2298ca92f72f75391780300322517a6ceb5bb8b1d7757eb4bf35c942057b");
	assert_string_equal(config_file_shown(&f->c, f->c.files[0]), "/etc/hostprep/hostprep.conf");
}

static void test_digest_parse_order(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_USR, "[Host]\nApply=no\n");
	write_file(f, MAIN_ETC, "[Host]\nApply=yes\n");
	write_file(f, DROPIN_ETC "50-a.conf", "[Host]\nWait=5s\n");
	assert_int_equal(load(f, NULL, 0), 0);
	assert_string_equal(f->c.digest,
			    "6d3c2620984a919c1c3533fc91ef9fad88fb5ec345296d3646434e0c019edccc");
	assert_string_equal(config_file_shown(&f->c, f->c.files[2]),
			    "/etc/hostprep/hostprep.conf.d/50-a.conf");
	assert_null(f->c.files[3]);
}

/* Digest of the tree as it is now, loaded afresh. */
static void digest_now(struct fixture *f, char out[static CONFIG_DIGEST_HEX + 1])
{
	config_done(&f->c);
	assert_int_equal(load(f, NULL, 0), 0);
	assert_int_equal(strlen(f->c.digest), CONFIG_DIGEST_HEX);
	assert_int_equal(strspn(f->c.digest, "0123456789abcdef"), CONFIG_DIGEST_HEX);
	strcpy(out, f->c.digest);
}

/* One byte, a file's name, or where the bytes are split between two files: each counts. */
static void test_digest_changes(void **state)
{
	struct fixture *f = *state;
	char a[CONFIG_DIGEST_HEX + 1], b[CONFIG_DIGEST_HEX + 1];
	char *from, *to;

	write_file(f, DROPIN_ETC "50-a.conf", "[Host]\nApply=no\n\n");
	write_file(f, DROPIN_ETC "60-b.conf", "#y\n");
	digest_now(f, a);
	digest_now(f, b);
	assert_string_equal(a, b); /* the same files: the same digest */
	write_file(f, DROPIN_ETC "50-a.conf", "[Host]\nApply=no\n");
	write_file(f, DROPIN_ETC "60-b.conf", "\n#y\n");
	digest_now(f, b);
	assert_string_not_equal(a, b); /* the same bytes in order, split elsewhere */
	write_file(f, DROPIN_ETC "50-a.conf", "[Host]\nApply=no\n\n");
	write_file(f, DROPIN_ETC "60-b.conf", "#y\n");
	digest_now(f, b);
	assert_string_equal(a, b);
	write_file(f, DROPIN_ETC "60-b.conf", "#z\n");
	digest_now(f, b);
	assert_string_not_equal(a, b); /* one byte */
	write_file(f, DROPIN_ETC "60-b.conf", "#y\n");
	from = tree_path(f, DROPIN_ETC "60-b.conf");
	to = tree_path(f, DROPIN_ETC "61-b.conf");
	assert_int_equal(rename(from, to), 0);
	digest_now(f, b);
	assert_string_not_equal(a, b); /* same bytes, another name */
	free(from);
	free(to);
}

/* No digest until a load succeeds; a failed load leaves none. */
static void test_digest_empty_on_error(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC, "[Host]\nApply=maybe\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_string_equal(f->c.digest, "");
}

static void test_defaults_without_files(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(load(f, NULL, 0), 0);
	assert_string_equal(f->err, "");
	assert_false(f->c.apply);
	assert_null(f->c.apply_at.file);
	assert_int_equal(iommu_config_get(&f->c)->expect, IOMMU_EXPECT_ANY);
	assert_int_equal(acs_config_get(&f->c)->n_rules, 0);
	assert_non_null(f->c.files);
	assert_null(f->c.files[0]);
	assert_int_equal(f->c.n_lines, 3);
	assert_int_equal(f->c.wait_usec, 60 * 1000000ULL);
	assert_string_equal(f->c.lines[1].key, "Wait");
	assert_string_equal(f->c.lines[1].value, "60s");
	assert_string_equal(f->c.lines[0].key, "Apply");
	assert_string_equal(f->c.lines[0].value, "no");
	assert_null(f->c.lines[0].at.file);
}

static void test_usr_lib_then_etc(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_USR, "[Host]\nApply=yes\n[IOMMU]\nExpect=off\n");
	write_file(f, MAIN_ETC, "# site\n[IOMMU]\nExpect=passthrough\n");
	assert_int_equal(load(f, NULL, 0), 0);
	assert_true(f->c.apply);
	assert_origin(f, &f->c.apply_at, MAIN_USR, 2);
	assert_int_equal(iommu_config_get(&f->c)->expect, IOMMU_EXPECT_PASSTHROUGH);
	assert_origin(f, &iommu_config_get(&f->c)->expect_at, MAIN_ETC, 3);
	assert_string_equal(f->c.files[0] + strlen(f->dir) + 1, MAIN_USR);
	assert_string_equal(f->c.files[1] + strlen(f->dir) + 1, MAIN_ETC);
	assert_null(f->c.files[2]);
}

static void test_dropins_in_lexical_order_across_dirs(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC, "[IOMMU]\nExpect=any\n");
	write_file(f, DROPIN_USR "90-late.conf", "[IOMMU]\nExpect=translated\n");
	write_file(f, DROPIN_ETC "10-early.conf", "[IOMMU]\nExpect=off\n");
	write_file(f, DROPIN_RUN "50-mid.conf", "[IOMMU]\nExpect=passthrough\n");
	assert_int_equal(load(f, NULL, 0), 0);
	assert_int_equal(iommu_config_get(&f->c)->expect, IOMMU_EXPECT_TRANSLATED);
	assert_string_equal(f->c.files[0] + strlen(f->dir) + 1, MAIN_ETC);
	assert_string_equal(f->c.files[1] + strlen(f->dir) + 1, DROPIN_ETC "10-early.conf");
	assert_string_equal(f->c.files[2] + strlen(f->dir) + 1, DROPIN_RUN "50-mid.conf");
	assert_string_equal(f->c.files[3] + strlen(f->dir) + 1, DROPIN_USR "90-late.conf");
	assert_null(f->c.files[4]);
}

static void test_dropin_etc_over_run_over_usr_lib(void **state)
{
	struct fixture *f = *state;

	write_file(f, DROPIN_USR "50-x.conf", "[IOMMU]\nExpect=off\n");
	write_file(f, DROPIN_RUN "50-x.conf", "[IOMMU]\nExpect=passthrough\n");
	write_file(f, DROPIN_ETC "50-x.conf", "[IOMMU]\nExpect=translated\n");
	assert_int_equal(load(f, NULL, 0), 0);
	assert_int_equal(iommu_config_get(&f->c)->expect, IOMMU_EXPECT_TRANSLATED);
	assert_string_equal(f->c.files[0] + strlen(f->dir) + 1, DROPIN_ETC "50-x.conf");
	assert_null(f->c.files[1]); /* the shadowed ones are not even read */
}

static void test_dropin_run_over_usr_lib(void **state)
{
	struct fixture *f = *state;

	write_file(f, DROPIN_USR "50-x.conf", "[IOMMU]\nExpect=off\n");
	write_file(f, DROPIN_RUN "50-x.conf", "[IOMMU]\nExpect=passthrough\n");
	assert_int_equal(load(f, NULL, 0), 0);
	assert_int_equal(iommu_config_get(&f->c)->expect, IOMMU_EXPECT_PASSTHROUGH);
	assert_origin(f, &iommu_config_get(&f->c)->expect_at, DROPIN_RUN "50-x.conf", 2);
	assert_null(f->c.files[1]);
}

static void test_dropin_only_visible_conf_files(void **state)
{
	struct fixture *f = *state;

	write_file(f, DROPIN_ETC "README", "garbage\n");
	write_file(f, DROPIN_ETC ".hidden.conf", "garbage\n");
	write_file(f, DROPIN_ETC "50-x.conf~", "garbage\n");
	write_file(f, DROPIN_ETC ".conf", "garbage\n");
	assert_int_equal(load(f, NULL, 0), 0);
	assert_null(f->c.files[0]);
}

static void test_masked_dropin(void **state)
{
	struct fixture *f = *state;
	char *link;

	write_file(f, DROPIN_USR "50-vendor.conf", "[Host]\nApply=yes\n");
	write_file(f, DROPIN_ETC "keep", "");
	link = tree_path(f, DROPIN_ETC "50-vendor.conf");
	assert_int_equal(symlink("/dev/null", link), 0);
	free(link);
	assert_int_equal(load(f, NULL, 0), 0);
	assert_false(f->c.apply);
	assert_null(f->c.files[0]);
}

static void test_list_accumulates_across_files(void **state)
{
	struct fixture *f = *state;
	const struct acs_rule *r;

	write_file(f, MAIN_USR, "[ACS:gpu]\nSelect=class:0302\n");
	write_file(f, DROPIN_ETC "50-site.conf", "[ACS:gpu]\nSelect=class:0300   10b5:*\n");
	assert_int_equal(load(f, NULL, 0), 0);
	assert_int_equal(acs_config_get(&f->c)->n_rules, 1);
	r = &acs_config_get(&f->c)->rules[0];
	assert_int_equal(r->n_select, 3);
	assert_string_equal(r->select[0].text, "class:0302");
	assert_string_equal(r->select[1].text, "class:0300");
	assert_string_equal(r->select[2].text, "10b5:*");
	assert_origin(f, &r->select[0].at, MAIN_USR, 2);
	assert_origin(f, &r->select[2].at, DROPIN_ETC "50-site.conf", 2);
	assert_int_equal(r->select[2].sel.kind, SELECTOR_ID);
	assert_origin(f, &r->at, MAIN_USR, 1);
}

static void test_list_empty_assignment_resets(void **state)
{
	struct fixture *f = *state;
	const struct acs_rule *r;

	write_file(f, MAIN_USR, "[ACS:gpu]\nSelect=class:0302 class:0300\nExclude=3a:00.0\n");
	write_file(f, DROPIN_ETC "50-site.conf",
		   "[ACS:gpu]\nSelect=\nSelect=class:0207\nExclude=\n");
	assert_int_equal(load(f, NULL, 0), 0);
	r = &acs_config_get(&f->c)->rules[0];
	assert_int_equal(r->n_select, 1);
	assert_string_equal(r->select[0].text, "class:0207");
	assert_int_equal(r->n_exclude, 0);
}

static void test_scalar_later_file_overrides(void **state)
{
	struct fixture *f = *state;
	struct acs_mask want;

	write_file(f, MAIN_USR, "[ACS:gpu]\nSelect=class:0302\nMask=x0x00xx\nEnabled=yes\n");
	write_file(f, DROPIN_ETC "50-site.conf", "[ACS:gpu]\nMask=0000000\nEnabled=no\n");
	assert_int_equal(load(f, NULL, 0), 0);
	assert_int_equal(acs_mask_parse("0000000", &want), 0);
	assert_true(acs_mask_equal(&acs_config_get(&f->c)->rules[0].mask, &want));
	assert_origin(f, &acs_config_get(&f->c)->rules[0].mask_at, DROPIN_ETC "50-site.conf", 2);
	assert_false(acs_config_get(&f->c)->rules[0].enabled);
}

static void test_empty_scalar_restores_default(void **state)
{
	struct fixture *f = *state;
	struct acs_mask def;

	write_file(f, MAIN_USR, "[Host]\nApply=yes\n[ACS:gpu]\nSelect=class:0302\nMask=0000000\n");
	write_file(f, DROPIN_ETC "50-site.conf", "[Host]\nApply=\n[ACS:gpu]\nMask=\n");
	assert_int_equal(load(f, NULL, 0), 0);
	assert_int_equal(acs_mask_parse(ACS_MASK_DEFAULT, &def), 0);
	assert_true(acs_mask_equal(&acs_config_get(&f->c)->rules[0].mask, &def));
	assert_null(acs_config_get(&f->c)->rules[0].mask_at.file);
	assert_false(f->c.apply);
	assert_null(f->c.apply_at.file);
}

static void test_boolean_spellings(void **state)
{
	struct fixture *f = *state;
	static const char *const yes[] = { "yes", "YES", "true", "On", "1" };
	static const char *const no[] = { "no", "False", "off", "0", "nO" };

	for (size_t i = 0; i < 2 * ARRAY_SIZE(yes); i++) {
		bool want = i < ARRAY_SIZE(yes);
		char text[64];

		snprintf(text, sizeof(text), "[Host]\nApply=%s\n",
			 want ? yes[i] : no[i - ARRAY_SIZE(yes)]);
		write_file(f, MAIN_ETC, text);
		assert_int_equal(load(f, NULL, 0), 0);
		assert_int_equal(f->c.apply, want);
		config_done(&f->c);
	}
}

static void test_unknown_section(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC, "[Host]\nApply=no\n[host]\nApply=yes\nWhatever=1\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 3, "unknown section [host]");
	assert_int_equal(count_lines(f->err), 1); /* its keys are not reported again */
}

static void test_unknown_key(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC, "[Host]\nApply=no\n\nAplly=yes\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 4, "unknown key 'Aplly' in [Host] section");
}

static void test_bad_boolean(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC, "[Host]\nApply=maybe\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2, "invalid boolean 'maybe'");
}

static void test_bad_expect(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC, "[IOMMU]\n; strict is not a mode\nExpect=strict\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 3, "invalid value 'strict'");
}

static void test_bad_mask(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC, "[ACS:gpu]\nSelect=class:0302\nMask=x0x00x\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 3, "invalid mask 'x0x00x'");
}

static void test_bad_selector_with_reason(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC, "[ACS:gpu]\nSelect=class:0302 class:3\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2,
			"invalid selector 'class:3': class must be 2, 4 or 6 hex digits");
}

static void test_key_before_section(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC, "Apply=yes\n[Host]\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 1, "'Apply=' before any [Section] header");
}

static void test_line_without_equals(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC, "[Host]\nApply yes\n[IOMMU\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2, "expected 'Key=value'");
	assert_error_at(f, MAIN_ETC, 3, "missing ']'");
}

/* inih would append an indented line to the previous value; we refuse it. */
static void test_indented_line_is_no_continuation(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC,
		   "[ACS:gpu]\nSelect=class:0302\n    class0300\n\tMask=0000000\n\f\v class0207\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 3,
			"continuation lines are not supported: put the value on the 'Select=' "
			"line (line 2) or repeat 'Select=' on this line");
	assert_error_at(f, MAIN_ETC, 5, "continuation lines are not supported");
	assert_int_equal(count_lines(f->err), 2); /* the indented Mask= is a plain key */
}

/* "    upstream:class:0300" under Select= is a continuation, not "Key: value". */
static void test_indented_selector_is_continuation(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC,
		   "[ACS:gpu]\nSelect=upstream:class:0302\n    upstream:class:0300\n"
		   "[Host]\n  no-key-yet: x\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 3,
			"continuation lines are not supported: put the value on "
			"the 'Select=' line (line 2)");
	assert_error_at(f, MAIN_ETC, 5,
			"indented line without '=': continuation lines are not "
			"supported");
	assert_null(strstr(f->err, "not ':'"));
	assert_int_equal(count_lines(f->err), 2);
}

static void test_colon_separator_rejected(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC, "[Host]\nApply: yes\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2, "expected '=' between key and value");
}

static void test_inline_comments(void **state)
{
	struct fixture *f = *state;
	struct acs_mask want;

	write_file(f, MAIN_ETC,
		   "; comment\n# comment\n[ACS:gpu] ; trailing\nSelect=class:0302 ; GPUs\n"
		   "Mask=0000000 ; like NCCL\n");
	assert_int_equal(load(f, NULL, 0), 0);
	assert_int_equal(acs_config_get(&f->c)->rules[0].n_select, 1);
	assert_int_equal(acs_mask_parse("0000000", &want), 0);
	assert_true(acs_mask_equal(&acs_config_get(&f->c)->rules[0].mask, &want));
	config_done(&f->c);

	/* '#' after a value is not a comment */
	write_file(f, MAIN_ETC, "[ACS:gpu]\nSelect=class:0302\nMask=0000000 # like NCCL\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 3, "invalid mask '0000000 # like NCCL'");
}

static void test_bad_rule_names(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC,
		   "[ACS:]\n[ACS:a b]\n[ACS:abcdefghijklmnopqrstuvwxyz0123456]\n"
		   "[ACS:abcdefghijklmnopqrstuvwxyz012345]\nSelect=class:06\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 1, "invalid rule name ''");
	assert_error_at(f, MAIN_ETC, 2, "invalid rule name 'a b'");
	assert_error_at(f, MAIN_ETC, 3, "invalid rule name");
	assert_int_equal(count_lines(f->err), 3); /* 32 characters are fine */
}

static void test_duplicate_rule_in_one_file(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC,
		   "[ACS:gpu]\nSelect=class:0302\n[Host]\nApply=no\n"
		   "[ACS:gpu]\nSelect=class:0300\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 5, "duplicate section [ACS:gpu] (first at line 1)");
	assert_int_equal(count_lines(f->err), 1);
}

static void test_same_rule_extended_in_dropin(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC, "[ACS:gpu]\nSelect=class:0302\n");
	write_file(f, DROPIN_ETC "50-site.conf", "[ACS:gpu]\nSelect=class:0300\n");
	assert_int_equal(load(f, NULL, 0), 0);
	assert_int_equal(acs_config_get(&f->c)->n_rules, 1);
	assert_int_equal(acs_config_get(&f->c)->rules[0].n_select, 2);
	assert_origin(f, &acs_config_get(&f->c)->rules[0].at, MAIN_ETC, 1);
}

static void test_all_errors_reported(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC, "[Host]\nApply=maybe\n[IOMMU]\nExpect=sometimes\n");
	write_file(f, DROPIN_ETC "50-site.conf", "[Host]\n\nNope=1\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2, "invalid boolean");
	assert_error_at(f, MAIN_ETC, 4, "invalid value");
	assert_error_at(f, DROPIN_ETC "50-site.conf", 3, "unknown key 'Nope'");
	assert_int_equal(count_lines(f->err), 3);
}

static void test_line_too_long(void **state)
{
	struct fixture *f = *state;
	char text[512], longest[CONFIG_MAX_LINE + 1];

	memset(longest, 'x', CONFIG_MAX_LINE);
	longest[0] = '#';
	longest[CONFIG_MAX_LINE] = '\0';
	snprintf(text, sizeof(text), "[Host]\n%s\nApply=no\n", longest);
	write_file(f, MAIN_ETC, text);
	assert_int_equal(load(f, NULL, 0), 0);
	config_done(&f->c);

	/* One more, and a "key" hidden where inih would have cut the line. */
	snprintf(text, sizeof(text), "[Host]\nApply=no\n%s%s\n", longest, "Apply=yes");
	write_file(f, MAIN_ETC, text);
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 3, "line too long (207 characters, at most 198)");
	assert_int_equal(count_lines(f->err), 1);
}

static void test_enabled_rule_without_select(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_USR, "[Host]\nApply=no\n\n[ACS:empty]\nMask=0000000\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_USR, 4, "[ACS:empty] is enabled but no file gives it a Select=");

	write_file(f, DROPIN_ETC "50-off.conf", "[ACS:empty]\nEnabled=no\n");
	assert_int_equal(load(f, NULL, 0), 0);
	assert_false(acs_config_get(&f->c)->rules[0].enabled);
}

static void test_too_many_rules(void **state)
{
	struct fixture *f = *state;
	char *text = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&text, &size);

	for (int i = 0; i <= ACS_MAX_RULES; i++)
		fprintf(m, "[ACS:r%d]\nSelect=class:06\n", i);
	fclose(m);
	write_file(f, MAIN_ETC, text);
	free(text);
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2 * ACS_MAX_RULES + 1, "too many [ACS:*] rules");
	assert_int_equal(count_lines(f->err), 1);
}

static void test_too_many_selectors(void **state)
{
	struct fixture *f = *state;
	char *text = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&text, &size);

	fputs("[ACS:gpu]\n", m);
	for (int i = 0; i <= CONFIG_MAX_SELECTORS; i++)
		fprintf(m, "Select=%02x:00.0\n", i);
	fclose(m);
	write_file(f, MAIN_ETC, text);
	free(text);
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, CONFIG_MAX_SELECTORS + 2, "too many selectors");
}

static void test_file_too_big(void **state)
{
	struct fixture *f = *state;
	char *text = malloc(CONFIG_MAX_FILE_SIZE + 2);
	char *want;

	assert_non_null(text);
	memset(text, '\n', CONFIG_MAX_FILE_SIZE + 1);
	text[CONFIG_MAX_FILE_SIZE + 1] = '\0';
	write_file(f, MAIN_ETC, text);
	free(text);
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_true(asprintf(&want, "%s/%s: too big", f->dir, MAIN_ETC) > 0);
	assert_non_null(strstr(f->err, want));
	free(want);
}

static void test_root_owned_file_mode(void **state)
{
	struct fixture *f = *state;
	char *want;

	write_file(f, MAIN_ETC, "[Host]\nApply=yes\n");
	chmod_rel(f, MAIN_ETC, 0666);
	assert_int_equal(load(f, NULL, 0), 0); /* without the flag: accepted */
	assert_true(f->c.apply);
	config_done(&f->c);

	assert_int_equal(load(f, NULL, CONFIG_REQUIRE_ROOT_OWNED), -EPERM);
	assert_true(asprintf(&want,
			     "%s/%s: writable by non-root user or group (mode 0666), refusing",
			     f->dir, MAIN_ETC) > 0);
	assert_non_null(strstr(f->err, want));
	free(want);
	assert_false(f->c.apply); /* freed and zeroed */

	chmod_rel(f, MAIN_ETC, 0644);
	assert_int_equal(load(f, NULL, CONFIG_REQUIRE_ROOT_OWNED), 0);
}

static void test_root_owned_dropin_dir(void **state)
{
	struct fixture *f = *state;
	char *want;

	write_file(f, DROPIN_RUN "50-x.conf", "[Host]\nApply=yes\n");
	chmod_rel(f, "run/hostprep/hostprep.conf.d", 0777);
	assert_true(load(f, NULL, CONFIG_REQUIRE_ROOT_OWNED) < 0);
	assert_true(asprintf(&want, "%s/%s: writable by non-root", f->dir,
			     "run/hostprep/hostprep.conf.d") > 0);
	assert_non_null(strstr(f->err, want));
	free(want);

	chmod_rel(f, "run/hostprep/hostprep.conf.d", 0755);
	chmod_rel(f, "run/hostprep", 0775);
	assert_true(load(f, NULL, CONFIG_REQUIRE_ROOT_OWNED) < 0);
	assert_non_null(strstr(f->err, "/run/hostprep: writable by non-root"));
}

static void test_root_owned_uid(void **state)
{
	struct fixture *f = *state;
	char *path;

	if (geteuid() != 0)
		skip();
	write_file(f, MAIN_USR, "[Host]\nApply=yes\n");
	path = tree_path(f, MAIN_USR);
	assert_int_equal(chown(path, 1000, 0), 0);
	free(path);
	assert_true(load(f, NULL, CONFIG_REQUIRE_ROOT_OWNED) < 0);
	assert_non_null(strstr(f->err, "owned by uid 1000, not root, refusing"));
	assert_int_equal(load(f, NULL, 0), 0);
}

static void test_explicit_files_replace_search(void **state)
{
	struct fixture *f = *state;
	char *files[3] = {};

	write_file(f, MAIN_ETC, "[Host]\nbroken\n");
	write_file(f, "site/a.conf", "[IOMMU]\nExpect=off\n");
	files[0] = tree_path(f, "site/a.conf");
	assert_int_equal(load(f, files, 0), 0);
	assert_int_equal(iommu_config_get(&f->c)->expect, IOMMU_EXPECT_OFF);
	assert_string_equal(f->c.files[0], files[0]);
	assert_null(f->c.files[1]);
	config_done(&f->c);

	files[1] = tree_path(f, "site/missing.conf");
	assert_int_equal(load(f, files, 0), -EINVAL);
	assert_non_null(strstr(f->err, "site/missing.conf: cannot open: No such file"));
	free(files[0]);
	free(files[1]);
}

static void test_timespan(void **state)
{
	uint64_t u = 7;

	assert_int_equal(config_parse_timespan("0", &u), 0);
	assert_int_equal(u, 0);
	assert_int_equal(config_parse_timespan("90", &u), 0);
	assert_int_equal(u, 90000000ULL);
	assert_int_equal(config_parse_timespan("500ms", &u), 0);
	assert_int_equal(u, 500000ULL);
	assert_int_equal(config_parse_timespan("1min 30s", &u), 0);
	assert_int_equal(u, 90000000ULL);
	assert_int_equal(config_parse_timespan("2m", &u), 0);
	assert_int_equal(u, 120000000ULL);
	assert_int_equal(config_parse_timespan("1h", &u), 0);
	assert_int_equal(config_parse_timespan("61min", &u), -ERANGE);
	assert_int_equal(config_parse_timespan("99999999999999999999", &u), -ERANGE);
	assert_int_equal(config_parse_timespan("", &u), -EINVAL);
	assert_int_equal(config_parse_timespan("-1", &u), -EINVAL);
	assert_int_equal(config_parse_timespan("5 parsecs", &u), -EINVAL);
	assert_int_equal(config_parse_timespan("5sx", &u), -EINVAL);
	assert_int_equal(config_parse_timespan("1.5s", &u), -EINVAL);
}

static void test_wait_key(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC, "[Host]\nWait=2min\n");
	assert_int_equal(load(f, NULL, 0), 0);
	assert_int_equal(f->c.wait_usec, 120000000ULL);
	assert_string_equal(f->c.lines[1].value, "120s");
	config_done(&f->c);
	/* dumped in the largest exact unit, as [Host]'s table prints it */
	static const char *const spans[][2] = {
		{ "0", "0" },		{ "1500ms", "1500ms" }, { "1min 30s", "90s" },
		{ "2500us", "2500us" }, { "1h", "3600s" },	{ "", "60s" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(spans); i++) {
		char text[64];

		config_done(&f->c);
		snprintf(text, sizeof(text), "[Host]\nWait=%s\n", spans[i][0]);
		write_file(f, MAIN_ETC, text);
		assert_int_equal(load(f, NULL, 0), 0);
		assert_string_equal(f->c.lines[1].value, spans[i][1]);
		assert_int_equal(f->c.lines[1].at.line, spans[i][0][0] ? 2 : 0);
	}
	config_done(&f->c);
	write_file(f, MAIN_ETC, "[Host]\nWait=soon\nWait=61min\nwait=1s\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2,
			"Wait=: invalid time span 'soon' (use e.g. 0, 60s, 2min; at most 1h)");
	assert_error_at(f, MAIN_ETC, 3, "Wait=: invalid time span '61min'");
	assert_error_at(f, MAIN_ETC, 4, "unknown key 'wait' in [Host] section\n");
}

/*
 * Keys assigned through a part's table (struct config_item): an enum in any case, its
 * "KEY=: invalid value" listing the names in table order, an empty value back to the
 * first name with the default's origin, and the dump by name.
 */
static void test_item_enum(void **state)
{
	struct fixture *f = *state;
	char *out = NULL;
	size_t size = 0;
	FILE *m;

	write_file(f, MAIN_ETC, "[IOMMU]\nExpect=pt\n[Links]\nDegraded=warning\nFoo=1\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2,
			"Expect=: invalid value 'pt' (use any, off, passthrough or translated)");
	assert_error_at(f, MAIN_ETC, 4, "Degraded=: invalid value 'warning' (use warn, fail or ignore)");
	assert_error_at(f, MAIN_ETC, 5,
			"unknown key 'Foo' in [Links] section (expected Degraded or Select)");
	write_file(f, MAIN_USR, "[IOMMU]\nExpect=off\n[Links]\nDegraded=fail\n");
	write_file(f, MAIN_ETC, "[IOMMU]\nExpect=TRANSLATED\n[Links]\nDegraded=\n");
	assert_int_equal(load(f, NULL, 0), 0);
	assert_int_equal(iommu_config_get(&f->c)->expect, IOMMU_EXPECT_TRANSLATED);
	assert_origin(f, &iommu_config_get(&f->c)->expect_at, MAIN_ETC, 2);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_non_null(strstr(out, "[IOMMU]\n# /etc/hostprep/hostprep.conf:2\nExpect=translated\n"));
	assert_non_null(strstr(out, "[Links]\n# default\nDegraded=warn\n"));
	free(out);
}

/* A table's state for the generic parsers' tests, as a part's would be. */
struct item_state {
	bool on;
	struct origin on_at;
	uint64_t n;
	struct origin n_at;
	uint64_t z;
	struct origin z_at;
};

static const struct config_uint_range range_1_100 = { 1, 100, "count", "from %llu to %llu" };
static const struct config_uint_range range_0_max = { 0, UINT64_MAX - 1, "size",
						       "a number from %llu to %llu" };

static const struct config_item test_items[] = {
	CONFIG_ITEM_BOOL("On", struct item_state, on, true),
	CONFIG_ITEM_UINT64("N", struct item_state, n, &range_1_100, 50),
	CONFIG_ITEM_UINT64("Z", struct item_state, z, &range_0_max, 7),
};

/*
 * config_items_assign() through the first n of test_items at test.conf:3, what it logged in
 * *err (the caller frees it).
 */
static int item_assign(size_t n_items, struct item_state *st, const char *key, const char *value,
		       char **err)
{
	const struct origin at = { "test.conf", 3 };
	FILE *tmp = tmpfile();
	int saved, r;
	long n;

	assert_non_null(tmp);
	fflush(stderr);
	saved = dup(2);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(tmp), 2) >= 0);
	r = config_items_assign(test_items, n_items, st, key, value, &at);
	if (r == -ENOKEY)
		r = config_items_unknown(test_items, n_items, "Test", key, &at);
	fflush(stderr);
	assert_true(dup2(saved, 2) >= 0);
	close(saved);
	n = ftell(tmp);
	*err = calloc(1, n + 1);
	assert_non_null(*err);
	rewind(tmp);
	assert_int_equal(fread(*err, 1, n, tmp), (size_t)n);
	fclose(tmp);
	return r;
}

/* Assign key=value and expect exactly this message (NULL: none, and 0). */
static void expect_item_n(size_t n_items, struct item_state *st, const char *key,
			  const char *value, const char *msg)
{
	char *err = NULL;
	int r = item_assign(n_items, st, key, value, &err);

	if (!msg) {
		assert_int_equal(r, 0);
		assert_string_equal(err, "");
	} else {
		char *want;

		assert_int_equal(r, -EINVAL);
		assert_true(asprintf(&want, "hostprep: test.conf:3: %s\n", msg) > 0);
		assert_string_equal(err, want);
		free(want);
	}
	free(err);
}

static void expect_item(struct item_state *st, const char *key, const char *value,
			const char *msg)
{
	expect_item_n(ARRAY_SIZE(test_items), st, key, value, msg);
}

static const char *item_print(const struct item_state *st, size_t i, char *buf, size_t size)
{
	return test_items[i].print(&test_items[i], st, buf, size);
}

/*
 * CONFIG_ITEM_BOOL: config_parse_boolean()'s eight spellings in any case, nothing else;
 * the message; a bad value leaves the field and its origin; empty back to dflt (true
 * here, so that a parser restoring false or 0 fails), origin cleared; yes/no in the dump.
 */
static void test_item_bool(void **state)
{
	static const char *const yes[] = { "yes", "YES", "true", "True", "on", "ON", "1" };
	static const char *const no[] = { "no", "No", "false", "FALSE", "off", "Off", "0" };
	static const char *const bad[] = { "y", "n", "2", "01", "yes no", "enable", "-1" };
	struct item_state st = {};
	char buf[64], *msg;

	assert_int_equal(config_items_defaults(test_items, ARRAY_SIZE(test_items), &st), 0);
	assert_true(st.on);
	assert_null(st.on_at.file);
	for (size_t i = 0; i < ARRAY_SIZE(no); i++) {
		st.on = true;
		expect_item(&st, "On", no[i], NULL);
		assert_false(st.on);
		assert_string_equal(item_print(&st, 0, buf, sizeof(buf)), "no");
		expect_item(&st, "On", yes[i], NULL);
		assert_true(st.on);
		assert_string_equal(st.on_at.file, "test.conf");
		assert_int_equal(st.on_at.line, 3);
		assert_string_equal(item_print(&st, 0, buf, sizeof(buf)), "yes");
	}
	expect_item(&st, "On", "no", NULL);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_true(asprintf(&msg, "On=: invalid boolean '%s' (use yes or no)", bad[i]) > 0);
		expect_item(&st, "On", bad[i], msg);
		free(msg);
		assert_false(st.on);
		assert_int_equal(st.on_at.line, 3);
	}
	expect_item(&st, "On", "", NULL);
	assert_true(st.on);
	assert_null(st.on_at.file);
}

/*
 * CONFIG_ITEM_UINT64: the bounds exactly (min-1 and max+1 refused), decimal digits only
 * (no sign, blank, leading zero but "0", suffix), no overflow past UINT64_MAX, the
 * range's own message; empty back to dflt with the origin cleared; decimal in the dump.
 */
static void test_item_uint64(void **state)
{
	static const char *const bad_n[] = { "0", "101", "-1", "+1", " 1", "1 ", "01", "1x",
					     "0x10", "1e2", "18446744073709551617" };
	static const char *const bad_z[] = { "00", "18446744073709551615",
					     "18446744073709551616", "99999999999999999999" };
	struct item_state st = {};
	char buf[64], *msg;

	assert_int_equal(config_items_defaults(test_items, ARRAY_SIZE(test_items), &st), 0);
	assert_true(st.n == 50 && st.z == 7);
	expect_item(&st, "N", "1", NULL);
	assert_true(st.n == 1);
	expect_item(&st, "N", "100", NULL);
	assert_true(st.n == 100);
	assert_int_equal(st.n_at.line, 3);
	assert_string_equal(item_print(&st, 1, buf, sizeof(buf)), "100");
	for (size_t i = 0; i < ARRAY_SIZE(bad_n); i++) {
		assert_true(asprintf(&msg, "N=: invalid count '%s' (from 1 to 100)", bad_n[i]) > 0);
		expect_item(&st, "N", bad_n[i], msg);
		free(msg);
		assert_true(st.n == 100);
	}
	expect_item(&st, "N", "", NULL);
	assert_true(st.n == 50);
	assert_null(st.n_at.file);

	expect_item(&st, "Z", "0", NULL);
	assert_true(st.z == 0);
	assert_string_equal(item_print(&st, 2, buf, sizeof(buf)), "0");
	expect_item(&st, "Z", "18446744073709551614", NULL);
	assert_true(st.z == UINT64_MAX - 1);
	assert_string_equal(item_print(&st, 2, buf, sizeof(buf)), "18446744073709551614");
	for (size_t i = 0; i < ARRAY_SIZE(bad_z); i++) {
		assert_true(asprintf(&msg,
				     "Z=: invalid size '%s' (a number from 0 to 18446744073709551614)",
				     bad_z[i]) > 0);
		expect_item(&st, "Z", bad_z[i], msg);
		free(msg);
	}
	expect_item(&st, "Z", "", NULL);
	assert_true(st.z == 7);
}

/* The unknown-key message lists the table's keys in order; the dump is one line each. */
static void test_items_unknown_and_lines(void **state)
{
	struct item_state st = {};

	expect_item(&st, "on", "yes", "unknown key 'on' in [Test] section (expected On, N or Z)");
	expect_item_n(2, &st, "Z", "1", "unknown key 'Z' in [Test] section (expected On or N)");
	expect_item_n(1, &st, "N", "1", "unknown key 'N' in [Test] section (expected On)");
	assert_int_equal(config_items_n_lines(test_items, ARRAY_SIZE(test_items), &st), 3);
}

/*
 * [AER] through its table: the thresholds' defaults and message, the unknown-key message
 * from the table (the keys in dump order), Exceeded= as an enum, and the dump.
 */
static void test_item_aer(void **state)
{
	struct fixture *f = *state;
	const struct aer_config *ac;
	char *out = NULL;
	size_t size = 0;
	FILE *m;

	write_file(f, MAIN_ETC, "[AER]\n");
	assert_int_equal(load(f, NULL, 0), 0);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_non_null(strstr(out, "[AER]\n# default\nFatal=0\n# default\nNonFatal=0\n"
				    "# default\nCorrectable=off\n# default\nExceeded=warn\n"));
	free(out);
	out = NULL;
	config_done(&f->c);
	write_file(f, MAIN_ETC, "[AER]\nFatal=01\nCorrectable=1000000000001\nExceeded=no\nFoo=1\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2,
			"Fatal=: invalid threshold '01' (a count from 0 to 1000000000000, or off)");
	assert_error_at(f, MAIN_ETC, 3, "Correctable=: invalid threshold '1000000000001'");
	assert_error_at(f, MAIN_ETC, 4, "Exceeded=: invalid value 'no' (use warn or fail)");
	assert_error_at(f, MAIN_ETC, 5,
			"unknown key 'Foo' in [AER] section (expected Fatal, NonFatal, "
			"Correctable or Exceeded)");
	write_file(f, MAIN_USR, "[AER]\nFatal=3\nNonFatal=off\nExceeded=FAIL\n");
	write_file(f, MAIN_ETC, "[AER]\nFatal=\nCorrectable=1000000000000\n");
	assert_int_equal(load(f, NULL, 0), 0);
	ac = aer_config_get(&f->c);
	assert_true(ac->limit[AER_FATAL] == 0 && ac->limit[AER_NONFATAL] == AER_OFF);
	assert_true(ac->limit[AER_COR] == AER_COUNT_MAX);
	assert_int_equal(ac->exceeded, AER_EXCEEDED_FAIL);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_non_null(strstr(out, "[AER]\n# default\nFatal=0\n"
				    "# /usr/lib/hostprep/hostprep.conf:3\nNonFatal=off\n"
				    "# /etc/hostprep/hostprep.conf:3\nCorrectable=1000000000000\n"
				    "# /usr/lib/hostprep/hostprep.conf:4\nExceeded=fail\n"));
	free(out);
}

/*
 * [Sysctl] Expect=, a list item: each NAME once (a later one replaces its value and
 * origin), an empty assignment forgets them, an empty list dumped as one empty
 * assignment at the section's first header; the table-made unknown-key message.
 */
static void test_item_sysctl(void **state)
{
	struct fixture *f = *state;
	char *out = NULL;
	size_t size = 0;
	FILE *m;

	write_file(f, MAIN_ETC, "[Sysctl]\nExpect=novalue\nexpect=a.b=1\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2, "Expect=: 'novalue': ");
	assert_error_at(f, MAIN_ETC, 3, "unknown key 'expect' in [Sysctl] section (expected Expect)");
	write_file(f, MAIN_USR, "[Sysctl]\nExpect=a.b=1\nExpect=c.d = 2\n");
	write_file(f, MAIN_ETC, "[Sysctl]\nExpect=a.b=3\n");
	assert_int_equal(load(f, NULL, 0), 0);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_non_null(strstr(out, "[Sysctl]\n# reset: the Expect= lines below are the whole list\nExpect=\n"
				    "# /etc/hostprep/hostprep.conf:2\nExpect=a.b=3\n"
				    "# /usr/lib/hostprep/hostprep.conf:3\nExpect=c.d=2\n"));
	free(out);
	out = NULL;
	config_done(&f->c);
	write_file(f, MAIN_USR, "[Sysctl]\nExpect=a.b=1\n");
	write_file(f, MAIN_ETC, "[Sysctl]\nExpect=\n");
	assert_int_equal(load(f, NULL, 0), 0);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_non_null(strstr(out, "[Sysctl]\n# reset: the Expect= lines below are the whole list\n"
				    "Expect=\n# /usr/lib/hostprep/hostprep.conf:1\nExpect=\n"));
	assert_null(strstr(out, "a.b"));
	free(out);
}

/*
 * [Xid] through its table: two lists of one parser (each its own count), MaxRecords= as a
 * bounded count with its message and default, the unknown-key message, the dump.
 */
static void test_item_xid(void **state)
{
	struct fixture *f = *state;
	char *out = NULL;
	size_t size = 0;
	FILE *m;

	write_file(f, MAIN_ETC,
		   "[Xid]\nIgnore=079\nIgnoreSXid=0\nMaxRecords=10000001\nMaxRecords=0\nMax=1\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2, "Ignore=: invalid code '079' (a number from 1 to 99999)");
	assert_error_at(f, MAIN_ETC, 3, "IgnoreSXid=: invalid code '0' (a number from 1 to 99999)");
	assert_error_at(f, MAIN_ETC, 4, "MaxRecords=: invalid count '10000001' (from 1 to 10000000)");
	assert_error_at(f, MAIN_ETC, 5, "MaxRecords=: invalid count '0' (from 1 to 10000000)");
	assert_error_at(f, MAIN_ETC, 6,
			"unknown key 'Max' in [Xid] section (expected Ignore, IgnoreSXid or "
			"MaxRecords)");
	write_file(f, MAIN_USR, "[Xid]\nIgnoreSXid=20034\nMaxRecords=5\n");
	write_file(f, MAIN_ETC, "[Xid]\nIgnore=79 13\nMaxRecords=\n");
	assert_int_equal(load(f, NULL, 0), 0);
	assert_true(xid_config_get(&f->c)->max_records == XID_RECORDS_DEFAULT);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_non_null(strstr(out, "# /etc/hostprep/hostprep.conf:2\nIgnore=79\n"
				    "# /etc/hostprep/hostprep.conf:2\nIgnore=13\n"));
	assert_non_null(strstr(out, "IgnoreSXid=\n# /usr/lib/hostprep/hostprep.conf:2\n"
				    "IgnoreSXid=20034\n# default\nMaxRecords=200000\n"));
	free(out);
	out = NULL;
	config_done(&f->c);
	write_file(f, MAIN_USR, "[Xid]\n");
	write_file(f, MAIN_ETC, "[Xid]\nIgnore=43\n");
	assert_int_equal(load(f, NULL, 0), 0);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_non_null(strstr(out, "# default\nIgnoreSXid=\n# default\nMaxRecords=200000\n"));
	free(out);
}

/*
 * [GPU] through its table: each key's own message (the version's base named), the
 * defaults a new section starts from (Persistence=yes, NVLinks=all), an empty value back
 * to them, the unknown-key message and the dump in table order.
 */
static void test_item_gpu(void **state)
{
	struct fixture *f = *state;
	const struct gpu_config *gc;
	char *out = NULL;
	size_t size = 0;
	FILE *m;

	write_file(f, MAIN_ETC,
		   "[GPU]\nMinDriver=535.x\nMinVBIOS=96.00.zz\nPersistence=no\nMIG=yes\n"
		   "NVLinks=0\nNVLink=1\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2,
			"MinDriver=: invalid version '535.x' (numeric fields separated by dots)");
	assert_error_at(f, MAIN_ETC, 3,
			"MinVBIOS=: invalid version '96.00.zz' (hexadecimal fields separated by "
			"dots)");
	assert_error_at(f, MAIN_ETC, 4, "Persistence=: invalid value 'no' (use yes or any)");
	assert_error_at(f, MAIN_ETC, 5, "MIG=: invalid value 'yes' (use on, off or any)");
	assert_error_at(f, MAIN_ETC, 6,
			"NVLinks=: invalid value '0' (use all, any or a number of links from 1 to");
	assert_error_at(f, MAIN_ETC, 7,
			"unknown key 'NVLink' in [GPU] section (expected MinDriver, Driver, "
			"Persistence, MIG, MinVBIOS or NVLinks)");
	write_file(f, MAIN_USR, "[GPU]\nDriver=550.54\nPersistence=any\nMIG=on\nNVLinks=12\n");
	write_file(f, MAIN_ETC, "[GPU]\nDriver=\nPersistence=\nMinVBIOS=96.00.AB\nNVLinks=ANY\n");
	assert_int_equal(load(f, NULL, 0), 0);
	gc = gpu_config_get(&f->c);
	assert_true(gc->persistence);
	assert_string_equal(gc->driver, "");
	assert_int_equal(gc->nvlinks, GPU_NVLINKS_ANY);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_non_null(strstr(out, "[GPU]\n# default\nMinDriver=\n# default\nDriver=\n"
				    "# default\nPersistence=yes\n"
				    "# /usr/lib/hostprep/hostprep.conf:4\nMIG=on\n"
				    "# /etc/hostprep/hostprep.conf:4\nMinVBIOS=96.00.AB\n"
				    "# /etc/hostprep/hostprep.conf:5\nNVLinks=any\n"));
	free(out);
	out = NULL;
	config_done(&f->c);
	write_file(f, MAIN_USR, "[GPU]\n");
	write_file(f, MAIN_ETC, "[GPU]\nNVLinks=18\n");
	assert_int_equal(load(f, NULL, 0), 0);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_non_null(strstr(out, "Persistence=yes\n# default\nMIG=any\n# default\nMinVBIOS=\n"
				    "# /etc/hostprep/hostprep.conf:2\nNVLinks=18\n"));
	free(out);
}

/*
 * [Workload] through its table: the exact messages (MinMemlock= two of them, NetnsMode= a
 * table enum, DeviceNodes= the generic bool), the unknown-key message, and the dump: the
 * default units, an unset MinMemlock= as empty, an emptied unit list at the header.
 */
static void test_item_workload(void **state)
{
	struct fixture *f = *state;
	char *out = NULL;
	size_t size = 0;
	FILE *m;

	write_file(f, MAIN_ETC,
		   "[Workload]\nMinMemlock=8m\nMinMemlock=16777216T\nDeviceNodes=perhaps\n"
		   "NetnsMode=private\nMemlockUnits=containerd\nNetns=any\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2,
			"MinMemlock=: invalid size '8m' (infinity, or bytes with an optional K, "
			"M, G or T suffix, base 1024, like 64M)");
	assert_error_at(f, MAIN_ETC, 3, "MinMemlock=: '16777216T' is out of range");
	assert_error_at(f, MAIN_ETC, 4, "DeviceNodes=: invalid boolean 'perhaps' (use yes or no)");
	assert_error_at(f, MAIN_ETC, 5,
			"NetnsMode=: invalid value 'private' (use any, shared or exclusive)");
	assert_error_at(f, MAIN_ETC, 6,
			"MemlockUnits=: invalid unit name 'containerd' (a service unit, like "
			"containerd.service)");
	assert_error_at(f, MAIN_ETC, 7,
			"unknown key 'Netns' in [Workload] section (expected MemlockUnits, "
			"MinMemlock, DeviceNodes or NetnsMode)");
	write_file(f, MAIN_ETC, "[Workload]\nMinMemlock=65536K\nNetnsMode=Shared\n");
	assert_int_equal(load(f, NULL, 0), 0);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_non_null(strstr(out, "# default\nMemlockUnits=kubelet.service\n"
				    "# /etc/hostprep/hostprep.conf:2\nMinMemlock=64M\n"
				    "# default\nDeviceNodes=no\n"
				    "# /etc/hostprep/hostprep.conf:3\nNetnsMode=shared\n"));
	free(out);
	out = NULL;
	config_done(&f->c);
	write_file(f, MAIN_ETC, "[Workload]\nMemlockUnits=\nDeviceNodes=on\n");
	assert_int_equal(load(f, NULL, 0), 0);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_non_null(strstr(out, "# /etc/hostprep/hostprep.conf:1\nMemlockUnits=\n"
				    "# default\nMinMemlock=\n"
				    "# /etc/hostprep/hostprep.conf:3\nDeviceNodes=yes\n"
				    "# default\nNetnsMode=any\n"));
	free(out);
}

/*
 * [Inventory] through its table: the count's message and its unset default (empty in the
 * dump), ActivePorts= as one list line, the address lists (none dumped when empty), the
 * messages of each and the unknown-key message.
 */
static void test_item_inventory(void **state)
{
	struct fixture *f = *state;
	char *out = NULL;
	size_t size = 0;
	FILE *m;

	write_file(f, MAIN_ETC,
		   "[Inventory]\nGPUs=4097\nRDMADevices=08\nActivePorts=IB:8\n"
		   "NICAddresses=0000:3b:00.0 3b:00.0\nGPU=8\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2, "GPUs=: invalid count '4097' (a number from 0 to 4096)");
	assert_error_at(f, MAIN_ETC, 3,
			"RDMADevices=: invalid count '08' (a number from 0 to 4096)");
	assert_error_at(f, MAIN_ETC, 4,
			"ActivePorts=: invalid entry 'IB:8': the link layer is InfiniBand or "
			"Ethernet");
	assert_error_at(f, MAIN_ETC, 5,
			"NICAddresses=: 0000:3b:00.0 is listed twice (first at line 5)");
	assert_error_at(f, MAIN_ETC, 6,
			"unknown key 'GPU' in [Inventory] section (expected GPUs, NICs, "
			"RDMADevices, ActivePorts, GPUAddresses or NICAddresses)");
	write_file(f, MAIN_USR, "[Inventory]\nGPUs=8\nNICs=4\nActivePorts=Ethernet:2\n");
	write_file(f, MAIN_ETC, "[Inventory]\nNICs=\nGPUAddresses=1b:00.0 0000:29:00.0\n");
	assert_int_equal(load(f, NULL, 0), 0);
	assert_int_equal(inventory_config_get(&f->c)->count[INVENTORY_NICS], -1);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_non_null(strstr(out, "[Inventory]\n# /usr/lib/hostprep/hostprep.conf:2\nGPUs=8\n"
				    "# default\nNICs=\n# default\nRDMADevices=\n"));
	assert_non_null(strstr(out, "# /usr/lib/hostprep/hostprep.conf:4\nActivePorts=Ethernet:2\n"
				    "# reset: the GPUAddresses= lines below are the whole list\n"
				    "GPUAddresses=\n"
				    "# /etc/hostprep/hostprep.conf:3\nGPUAddresses=0000:1b:00.0\n"
				    "# /etc/hostprep/hostprep.conf:3\nGPUAddresses=0000:29:00.0\n"));
	assert_null(strstr(out, "NICAddresses"));
	free(out);
}

/*
 * [Sinks] through its table: two bools at a struct's member (on by default) and two
 * paths with their own message, dumped as set or as the default path on the host; the
 * part keeps its own unknown-key message (no list of keys).
 */
static void test_item_sinks(void **state)
{
	struct fixture *f = *state;
	char *out = NULL;
	size_t size = 0;
	FILE *m;

	write_file(f, MAIN_ETC, "[Sinks]\nPrometheus=maybe\nNFDFile=/a/../b\nNfd=no\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2, "Prometheus=: invalid boolean 'maybe' (use yes or no)");
	assert_error_at(f, MAIN_ETC, 3,
			"NFDFile=: invalid path '/a/../b' (absolute, at most 256 characters, no "
			"blanks, '//', '..' or trailing '/')");
	assert_error_at(f, MAIN_ETC, 4, "unknown key 'Nfd' in [Sinks] section\n");
	write_file(f, MAIN_USR, "[Sinks]\nPrometheus=no\nNFD=off\nNFDFile=/srv/nfd/hostprep\n");
	write_file(f, MAIN_ETC, "[Sinks]\nPrometheusDir=/srv/prom\nNFD=\n");
	assert_int_equal(load(f, NULL, 0), 0);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_non_null(strstr(out, "[Sinks]\n# /usr/lib/hostprep/hostprep.conf:2\nPrometheus=no\n"
				    "# /etc/hostprep/hostprep.conf:2\nPrometheusDir=/srv/prom\n"
				    "# default\nNFD=yes\n"
				    "# /usr/lib/hostprep/hostprep.conf:4\nNFDFile=/srv/nfd/hostprep\n"));
	free(out);
	out = NULL;
	config_done(&f->c);
	write_file(f, MAIN_USR, "[Sinks]\n");
	write_file(f, MAIN_ETC, "[Sinks]\nNFDFile=\n");
	assert_int_equal(load(f, NULL, 0), 0);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_non_null(strstr(out, "[Sinks]\n# default\nPrometheus=yes\n"
				    "# default\nPrometheusDir=/var/lib/prometheus/node-exporter\n"
				    "# default\nNFD=yes\n# default\n"
				    "NFDFile=/etc/kubernetes/node-feature-discovery/features.d/"
				    "hostprep\n"));
	free(out);
}

/*
 * [Bond:IFNAME] through its table over each rule: the messages in full, a new rule's
 * defaults (any mode, every slave, Miimon=yes, no RDMA) dumped as empty or yes, an empty
 * value back to them, and a rule's lines under its own section.
 */
static void test_item_bond(void **state)
{
	struct fixture *f = *state;
	char *out = NULL;
	size_t size = 0;
	FILE *m;

	write_file(f, MAIN_ETC,
		   "[Bond:bond0]\nMode=lacp\nMinSlavesUp=65\nMiimon=100\nRDMA=a/b\nmode=1\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2,
			"Mode=: unknown bonding mode 'lacp' (use balance-rr, active-backup, "
			"balance-xor, broadcast, 802.3ad, balance-tlb or balance-alb)");
	assert_error_at(f, MAIN_ETC, 3,
			"MinSlavesUp=: invalid value '65' (a number of slaves, 1-64; leave unset "
			"for every slave)");
	assert_error_at(f, MAIN_ETC, 4, "Miimon=: invalid boolean '100' (use yes or no)");
	assert_error_at(f, MAIN_ETC, 5, "RDMA=: invalid RDMA device name 'a/b' (1-63 characters");
	assert_error_at(f, MAIN_ETC, 6, "unknown key 'mode' in [Bond:*] section\n");
	write_file(f, MAIN_USR,
		   "[Bond:bond0]\nMode=802.3AD\nMinSlavesUp=2\nMiimon=no\nRDMA=mlx5_bond_0\n");
	write_file(f, MAIN_ETC, "[Bond:bond1]\nMiimon=no\n[Bond:bond0]\nMiimon=\nRDMA=\n");
	assert_int_equal(load(f, NULL, 0), 0);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_non_null(strstr(out, "[Bond:bond0]\n# /usr/lib/hostprep/hostprep.conf:2\nMode=802.3ad\n"
				    "# /usr/lib/hostprep/hostprep.conf:3\nMinSlavesUp=2\n"
				    "# default\nMiimon=yes\n# default\nRDMA=\n"));
	assert_non_null(strstr(out, "[Bond:bond1]\n# default\nMode=\n# default\nMinSlavesUp=\n"
				    "# /etc/hostprep/hostprep.conf:2\nMiimon=no\n# default\nRDMA=\n"));
	free(out);
}

/*
 * [Module:NAME] and [GPUDirect] through their tables: the enums' and bools' messages, a
 * new rule's defaults (Enabled= and Require= yes, the rest no, first names), Parameter=
 * lines only when given, [GPUDirect] Expect= last, and both unknown-key messages.
 */
static void test_item_kmod(void **state)
{
	struct fixture *f = *state;
	char *out = NULL;
	size_t size = 0;
	FILE *m;

	write_file(f, MAIN_ETC,
		   "[Module:nvidia_peermem]\nReload=always\nOrigin=mofed\nLoad=sure\nFoo=1\n"
		   "[GPUDirect]\nExpect=both\nFoo=1\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2, "Reload=: invalid value 'always' (use never or unused)");
	assert_error_at(f, MAIN_ETC, 3, "Origin=: invalid value 'mofed' (use any, ofed or inbox)");
	assert_error_at(f, MAIN_ETC, 4, "Load=: invalid boolean 'sure' (use yes or no)");
	assert_error_at(f, MAIN_ETC, 5, "unknown key 'Foo' in [Module:*] section\n");
	assert_error_at(f, MAIN_ETC, 7,
			"Expect=: invalid value 'both' (use any, peermem, dmabuf or either)");
	assert_error_at(f, MAIN_ETC, 8, "unknown key 'Foo' in [GPUDirect] section\n");
	write_file(f, MAIN_USR, "[Module:mlx5_core]\nEnabled=no\nOrigin=OFED\nParameter=a=1 b=2\n");
	write_file(f, MAIN_ETC, "[Module:ib_core]\n[Module:mlx5_core]\nEnabled=\n[GPUDirect]\n"
				"Expect=DMABUF\n");
	assert_int_equal(load(f, NULL, 0), 0);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_non_null(strstr(out, "[Module:mlx5_core]\n# default\nEnabled=yes\n"
				    "# default\nRequire=yes\n# default\nLoad=no\n"
				    "# default\nReload=never\n# default\nPersist=no\n"
				    "# /usr/lib/hostprep/hostprep.conf:3\nOrigin=ofed\n"
				    "# default\nMinVersion=\n# default\nDevices=no\n"
				    "# default\nRdmaCM=no\n"
				    "# reset: the Parameter= lines below are the whole list\n"
				    "Parameter=\n# /usr/lib/hostprep/hostprep.conf:4\nParameter=a=1\n"));
	assert_non_null(strstr(out, "[Module:ib_core]\n# default\nEnabled=yes\n"));
	assert_non_null(strstr(out, "# default\nRdmaCM=no\n\n[GPUDirect]\n"
				    "# /etc/hostprep/hostprep.conf:5\nExpect=dmabuf\n"));
	free(out);
}

/*
 * [Topology] through its table: two selector lists of one parser, each with its own count
 * and flag (an empty assignment clears it and its flag), ExpectP2P=, empty lists dumped as
 * one empty assignment, and the table-made unknown-key message.
 */
static void test_item_topology(void **state)
{
	struct fixture *f = *state;
	const struct topo_config *tc;
	char *out = NULL;
	size_t size = 0;
	FILE *m;

	write_file(f, MAIN_ETC, "[Topology]\nNIC=class:0207\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2,
			"unknown key 'NIC' in [Topology] section (expected Accelerators, NICs or "
			"ExpectP2P)");
	write_file(f, MAIN_USR, "[Topology]\nAccelerators=class:0302\nNICs=class:0207\n");
	write_file(f, MAIN_ETC, "[Topology]\nNICs=\nNICs=15b3:1021 15b3:101d\n");
	assert_int_equal(load(f, NULL, 0), 0);
	tc = topo_config_get(&f->c);
	assert_true(tc->accel_set && tc->n_accel == 1);
	assert_true(tc->nics_set && tc->n_nics == 2);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_non_null(strstr(out, "# /usr/lib/hostprep/hostprep.conf:2\nAccelerators=class:0302\n"));
	assert_non_null(strstr(out, "# /etc/hostprep/hostprep.conf:3\nNICs=15b3:1021\n"
				    "# /etc/hostprep/hostprep.conf:3\nNICs=15b3:101d\n"
				    "# reset: the ExpectP2P= lines below are the whole list\n"
				    "ExpectP2P=\n# default\nExpectP2P=\n"));
	free(out);
	out = NULL;
	config_done(&f->c);
	write_file(f, MAIN_ETC, "[Topology]\nAccelerators=\n");
	assert_int_equal(load(f, NULL, 0), 0);
	tc = topo_config_get(&f->c);
	assert_true(!tc->accel_set && tc->n_accel == 0);
	assert_true(tc->nics_set && tc->n_nics == 1);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_non_null(strstr(out, "[Topology]\n# reset: the Accelerators= lines below are the "
				    "whole list\nAccelerators=\n# default\nAccelerators=\n"));
	free(out);
}

/*
 * [ACS:NAME] through its table over each rule: the messages, a new rule's defaults
 * (Enabled=yes, the default mask, AllowNone= and AllowVFIO= no) in dump order, and the
 * selector lists a line each, none when empty.
 */
static void test_item_acs(void **state)
{
	struct fixture *f = *state;
	char *out = NULL;
	size_t size = 0;
	FILE *m;

	write_file(f, MAIN_ETC,
		   "[ACS:gpu]\nSelect=class:0302\nMask=01\nAllowNone=never\nAllowVFIO=1\n"
		   "Exclude=zz\nSelects=x\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 3,
			"Mask=: invalid mask '01' (7 characters of 0, 1 or x, bit 6 first)");
	assert_error_at(f, MAIN_ETC, 4, "AllowNone=: invalid boolean 'never' (use yes or no)");
	assert_error_at(f, MAIN_ETC, 6, "Exclude=: invalid selector 'zz': ");
	assert_error_at(f, MAIN_ETC, 7, "unknown key 'Selects' in [ACS:*] section\n");
	write_file(f, MAIN_ETC, "[ACS:gpu]\nSelect=class:0302\nAllowVFIO=yes\nAllowVFIO=\n");
	assert_int_equal(load(f, NULL, 0), 0);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_non_null(strstr(out, "[ACS:gpu]\n# default\nEnabled=yes\n# default\nMask=" ACS_MASK_DEFAULT
				    "\n# default\nAllowNone=no\n# default\nAllowVFIO=no\n"
				    "# reset: the Select= lines below are the whole list\nSelect=\n"
				    "# /etc/hostprep/hostprep.conf:2\nSelect=class:0302\n"));
	assert_null(strstr(out, "Exclude="));
	free(out);
}

/*
 * [Port:NAME] through its table: each key's message for a bad value in full, the part's
 * unknown-key message (no key list), a rule given every key dumped in table order with
 * each printer's form, an empty value back to its default (Env=, HCOLL= yes; a list
 * emptied, MinFirmware= gone), and a new rule's defaults: the scalars only, in order.
 */
static void test_item_port(void **state)
{
	struct fixture *f = *state;
	char *out = NULL;
	size_t size = 0;
	FILE *m;

	write_file(f, MAIN_ETC,
		   "[Port:a]\nSelect=a/b\nExclude=[x\nPorts=0\nMinFirmware=1..2\nFirmware=" 
		   "1.2.3.4.5.6.7.8.9.10.11.12.13.14.15.16.17.18.19.20.21.22.23.24.25.26.27.28\n"
		   "CounterLimit=nope=1\nAllowDown=maybe\nSelectLinkLayer=roce\nLinkLayer=ib\n"
		   "MinRate=3201\nMinWidth=3X\nMinMTU=300\nRoCEv2=2\nMinActive=0\nEnv=x\n"
		   "SocketInterface=a,,b\nHCOLL=y\nselect=x\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2,
			"Select=: invalid device glob 'a/b': '/', '\\\\' and control "
			"characters cannot be in a device name\n"); /* the log escapes '\\' */
	assert_error_at(f, MAIN_ETC, 3, "Exclude=: invalid device glob '[x': '[' without ']'\n");
	assert_error_at(f, MAIN_ETC, 4, "Ports=: invalid port number '0' (1-255)\n");
	assert_error_at(f, MAIN_ETC, 5,
			"MinFirmware=: '1..2' is not a firmware version (numbers and dots, as "
			"fw_ver reads: 28.39.1002)\n");
	assert_error_at(f, MAIN_ETC, 6, "Firmware=: at most 16 versions of 63 bytes\n");
	assert_error_at(f, MAIN_ETC, 7, "CounterLimit=: 'nope=1': unknown counter (");
	assert_error_at(f, MAIN_ETC, 8, "AllowDown=: invalid boolean 'maybe' (use yes or no)\n");
	assert_error_at(f, MAIN_ETC, 9,
			"SelectLinkLayer=: unknown link layer 'roce' (any, InfiniBand or "
			"Ethernet)\n");
	assert_error_at(f, MAIN_ETC, 10,
			"LinkLayer=: unknown link layer 'ib' (any, InfiniBand or Ethernet)\n");
	assert_error_at(f, MAIN_ETC, 11,
			"MinRate=: impossible rate '3201' (Gb/s between 1 and 3200, e.g. 200 or "
			"400, or a link name: SDR DDR QDR FDR10 FDR EDR HDR NDR XDR, HDR100 "
			"NDR200)\n");
	assert_error_at(f, MAIN_ETC, 12, "MinWidth=: invalid width '3X' (1X, 2X, 4X, 8X or 12X)\n");
	assert_error_at(f, MAIN_ETC, 13,
			"MinMTU=: invalid MTU '300' (256, 512, 1024, 2048 or 4096)\n");
	assert_error_at(f, MAIN_ETC, 14, "RoCEv2=: invalid boolean '2' (use yes or no)\n");
	assert_error_at(f, MAIN_ETC, 15, "MinActive=: invalid count '0' (a number from 1)\n");
	assert_error_at(f, MAIN_ETC, 16, "Env=: invalid boolean 'x' (use yes or no)\n");
	assert_error_at(f, MAIN_ETC, 17,
			"SocketInterface=: invalid interface name in 'a,,b' (1-15 bytes of A-Z "
			"a-z 0-9 _ . : -, separated by ',')\n");
	assert_error_at(f, MAIN_ETC, 18, "HCOLL=: invalid boolean 'y' (use yes or no)\n");
	assert_error_at(f, MAIN_ETC, 19, "unknown key 'select' in [Port:*] section\n");
	assert_null(strstr(f->err, "needs Select=")); /* the rule's errors said enough */

	write_file(f, MAIN_USR,
		   "[Port:a]\nSelect=mlx5_* pci:15b3:1021\nExclude=mlx5_9\nPorts=2 1\n"
		   "MinFirmware=28.39.1002\nFirmware=28.39.1002 28.40.1\n"
		   "CounterLimit=link_downed=off symbol_error=5:fail\nAllowDown=yes\n"
		   "SelectLinkLayer=ethernet\nLinkLayer=Ethernet\nMinRate=HDR\nMinWidth=4x\n"
		   "MinMTU=4096\nRoCEv2=on\nMinActive=2\nEnv=no\nSocketInterface=eth0,eth1\n"
		   "HCOLL=off\n");
	write_file(f, MAIN_ETC, "[Port:a]\n");
	assert_int_equal(load(f, NULL, 0), 0);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
#define U "# /usr/lib/hostprep/hostprep.conf:"
#define RESET(k) "# reset: the " k "= lines below are the whole list\n" k "=\n"
	assert_non_null(strstr(
		out, "[Port:a]\n" RESET("Select") U "2\nSelect=mlx5_*\n" U
		     "2\nSelect=pci:15b3:1021\n" RESET("Exclude") U "3\nExclude=mlx5_9\n" RESET(
			     "Ports") U "4\nPorts=2\n" U "4\nPorts=1\n" U
		     "5\nMinFirmware=28.39.1002\n" RESET("Firmware") U "6\nFirmware=28.39.1002\n" U
		     "6\nFirmware=28.40.1\n" RESET("CounterLimit") U
		     "7\nCounterLimit=symbol_error=5:fail\n" U "7\nCounterLimit=link_downed=off\n" U
		     "8\nAllowDown=yes\n" U "9\nSelectLinkLayer=Ethernet\n" U
		     "10\nLinkLayer=Ethernet\n" U "11\nMinRate=200\n" U "12\nMinWidth=4X\n" U
		     "13\nMinMTU=4096\n" U "14\nRoCEv2=yes\n" U "15\nMinActive=2\n" U
		     "16\nEnv=no\n" U "17\nSocketInterface=eth0,eth1\n" U "18\nHCOLL=no\n"));
	free(out);
	out = NULL;

	write_file(f, MAIN_ETC,
		   "[Port:a]\nExclude=\nPorts=\nMinFirmware=\nFirmware=\nCounterLimit=\n"
		   "AllowDown=\nSelectLinkLayer=\nLinkLayer=\nMinRate=\nMinWidth=\nMinMTU=\n"
		   "RoCEv2=\nMinActive=\nEnv=\nSocketInterface=\nHCOLL=\n[Port:b]\nSelect=ib*\n");
	assert_int_equal(load(f, NULL, 0), 0);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
#define DEFAULTS                                                                             \
	"# default\nAllowDown=no\n# default\nSelectLinkLayer=any\n# default\nLinkLayer=any\n" \
	"# default\nMinRate=\n# default\nMinWidth=\n# default\nMinMTU=\n"                      \
	"# default\nRoCEv2=no\n# default\nMinActive=\n# default\nEnv=yes\n"                    \
	"# default\nSocketInterface=\n# default\nHCOLL=yes\n"
	assert_non_null(strstr(out, "[Port:a]\n" RESET("Select") U "2\nSelect=mlx5_*\n" U
				    "2\nSelect=pci:15b3:1021\n" DEFAULTS "\n"));
	assert_non_null(strstr(out, "[Port:b]\n" RESET("Select") "# /etc/hostprep/hostprep.conf:19\n"
				    "Select=ib*\n" DEFAULTS));
#undef DEFAULTS
#undef RESET
#undef U
	free(out);
}

static void test_dump(void **state)
{
	struct fixture *f = *state;
	char *out = NULL;
	size_t size = 0;
	FILE *m;

	write_file(f, MAIN_USR,
		   "[Host]\nApply=no\n\n[ACS:gpu]\nSelect=upstream:class:0302\nMask=0000000\n");
	write_file(f, DROPIN_ETC "50-site.conf",
		   "[ACS:gpu]\nSelect=upstream:class:0207\nExclude=0000:3a:00.0\n\n"
		   "[IOMMU]\nExpect=passthrough\n[ACS:nic]\nEnabled=off\n");
	assert_int_equal(load(f, NULL, 0), 0);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_string_equal(out, "[Host]\n"
				 "# /usr/lib/hostprep/hostprep.conf:2\n"
				 "Apply=no\n"
				 "# default\n"
				 "Wait=60s\n"
				 "\n"
				 "[IOMMU]\n"
				 "# /etc/hostprep/hostprep.conf.d/50-site.conf:6\n"
				 "Expect=passthrough\n"
				 "\n"
				 "[ACS:gpu]\n"
				 "# default\n"
				 "Enabled=yes\n"
				 "# /usr/lib/hostprep/hostprep.conf:6\n"
				 "Mask=0000000\n"
				 "# default\n"
				 "AllowNone=no\n"
				 "# default\n"
				 "AllowVFIO=no\n"
				 "# reset: the Select= lines below are the whole list\n"
				 "Select=\n"
				 "# /usr/lib/hostprep/hostprep.conf:5\n"
				 "Select=upstream:class:0302\n"
				 "# /etc/hostprep/hostprep.conf.d/50-site.conf:2\n"
				 "Select=upstream:class:0207\n"
				 "# reset: the Exclude= lines below are the whole list\n"
				 "Exclude=\n"
				 "# /etc/hostprep/hostprep.conf.d/50-site.conf:3\n"
				 "Exclude=0000:3a:00.0\n"
				 "\n"
				 "[ACS:nic]\n"
				 "# /etc/hostprep/hostprep.conf.d/50-site.conf:8\n"
				 "Enabled=no\n"
				 "# default\n"
				 "Mask=x0x00xx\n"
				 "# default\n"
				 "AllowNone=yes\n"
				 "# default\n"
				 "AllowVFIO=no\n");
	free(out);
}

/* With --config the file is shown as given, not relative to the root. */
static void test_dump_explicit_file_path_as_given(void **state)
{
	struct fixture *f = *state;
	char *files[2] = { tree_path(f, MAIN_ETC), NULL };
	char *out = NULL, *want;
	size_t size = 0;
	FILE *m;

	write_file(f, MAIN_ETC, "[Host]\nApply=yes\n");
	assert_int_equal(load(f, files, 0), 0);
	m = open_memstream(&out, &size);
	assert_int_equal(config_dump(&f->c, m), 0);
	fclose(m);
	assert_true(asprintf(&want, "# %s:2\nApply=yes\n", files[0]) > 0);
	assert_non_null(strstr(out, want));
	free(want);
	free(out);
	free(files[0]);
}

static void test_section_header_junk(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC, "[Host] yes\nApply=yes\n[IOMMU] ; fine\nExpect=off\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 1, "unexpected text after ']'");
	assert_int_equal(count_lines(f->err), 1);
}

/* The keys under a header we could not read must not land in the section before it. */
static void test_long_section_header_skips_its_keys(void **state)
{
	struct fixture *f = *state;
	char name[256], text[512];

	memset(name, 'a', 200);
	name[200] = '\0';
	snprintf(text, sizeof(text), "[Host]\nApply=no\n[ACS:%s]\nSelect=class:03\n", name);
	write_file(f, MAIN_ETC, text);
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 3, "line too long");
	assert_int_equal(count_lines(f->err), 1);
}

static void test_nul_byte(void **state)
{
	struct fixture *f = *state;
	static const char text[] = "[Host]\nApply=no\0yes\n";
	char *path = tree_path(f, MAIN_ETC);
	FILE *fp;

	mkdir_parents(path);
	fp = fopen(path, "we");
	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, sizeof(text) - 1, fp), sizeof(text) - 1);
	fclose(fp);
	free(path);
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2, "NUL byte");
}

static void test_crlf_and_bom(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC, "\xef\xbb\xbf[Host]\r\nApply=yes\r\n");
	assert_int_equal(load(f, NULL, 0), 0);
	assert_true(f->c.apply);
	assert_origin(f, &f->c.apply_at, MAIN_ETC, 2);
}

static void test_failure_leaves_config_zeroed(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_USR, "[Host]\nApply=yes\n[ACS:gpu]\nSelect=class:0302\n");
	write_file(f, MAIN_ETC, "[Host]\nApply=perhaps\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_false(f->c.apply);
	assert_null(acs_config_get(&f->c)->rules);
	assert_int_equal(acs_config_get(&f->c)->n_rules, 0);
	assert_null(f->c.files);
	assert_null(f->c.lines);
	assert_int_equal(f->c.n_lines, 0);
	config_done(&f->c); /* and freeing it again is harmless */
}

static void test_iommu_expect_to_string(void **state)
{
	assert_string_equal(iommu_expect_to_string(IOMMU_EXPECT_ANY), "any");
	assert_string_equal(iommu_expect_to_string(IOMMU_EXPECT_OFF), "off");
	assert_string_equal(iommu_expect_to_string(IOMMU_EXPECT_PASSTHROUGH), "passthrough");
	assert_string_equal(iommu_expect_to_string(IOMMU_EXPECT_TRANSLATED), "translated");
	assert_null(iommu_expect_to_string(_IOMMU_EXPECT_MAX));
}

/* conf/hostprep.conf, found from this source file's path (the build runs in the top dir). */
static char *shipped_conf(void)
{
	const char *me = __FILE__, *tail = strstr(me, "tests/unit/");
	char *path;

	assert_true(asprintf(&path, "%.*sconf/hostprep.conf", tail ? (int)(tail - me) : 0, me) > 0);
	return path;
}

/* The shipped file must load cleanly and change nothing. */
static void test_shipped_config(void **state)
{
	struct fixture *f = *state;
	char *files[] = { shipped_conf(), NULL };
	struct acs_mask def;

	if (access(files[0], R_OK) < 0) {
		free(files[0]);
		skip();
	}
	assert_int_equal(load(f, files, 0), 0);
	free(files[0]);
	assert_false(f->c.apply);
	assert_int_equal(iommu_config_get(&f->c)->expect, IOMMU_EXPECT_ANY);
	assert_int_equal(acs_config_get(&f->c)->n_rules, 1);
	assert_string_equal(acs_config_get(&f->c)->rules[0].name, "gpu-paths");
	assert_true(acs_config_get(&f->c)->rules[0].enabled);
	assert_int_equal(acs_config_get(&f->c)->rules[0].n_select, 9);
	/* the least change: pairs below a switch, never upstream: (every root port) */
	for (size_t i = 0; i < acs_config_get(&f->c)->rules[0].n_select; i++) {
		assert_true(acs_config_get(&f->c)->rules[0].select[i].sel.p2p);
		assert_false(acs_config_get(&f->c)->rules[0].select[i].sel.upstream);
	}
	assert_int_equal(acs_mask_parse(ACS_MASK_DEFAULT, &def), 0);
	assert_true(acs_mask_equal(&acs_config_get(&f->c)->rules[0].mask, &def));
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

static void symlink_rel(struct fixture *f, const char *target, const char *rel)
{
	char *link = tree_path(f, rel);

	mkdir_parents(link);
	assert_int_equal(symlink(target, link), 0);
	free(link);
}

/* A dangling drop-in link is an error naming the file and the target, not a silent skip. */
static void test_dangling_dropin_symlink(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC, "[Host]\nApply=no\n");
	symlink_rel(f, "/nonexistent/site-policy.conf", DROPIN_ETC "50-site.conf");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, DROPIN_ETC "50-site.conf", 0,
			"dangling symlink to '/nonexistent/site-policy.conf'");
}

static void test_dangling_main_symlink(void **state)
{
	struct fixture *f = *state;

	symlink_rel(f, "hostprep.conf.orig", MAIN_ETC);
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 0, "dangling symlink to 'hostprep.conf.orig'");
}

static void test_dangling_dropin_dir_symlink(void **state)
{
	struct fixture *f = *state;

	symlink_rel(f, "/nonexistent/conf.d", "etc/hostprep/hostprep.conf.d");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, "etc/hostprep/hostprep.conf.d", 0, "dangling symlink");
}

/* Only the null device masks; /dev/zero is a character device too, and an error. */
/* The link resolves inside the root: its own dev/zero (made when mknod(2) is allowed). */
static void test_other_char_device_is_no_mask(void **state)
{
	struct fixture *f = *state;
	char *zero = tree_path(f, "dev/zero");

	write_file(f, DROPIN_USR "50-vendor.conf", "[Host]\nApply=yes\n");
	symlink_rel(f, "/dev/zero", DROPIN_ETC "50-vendor.conf");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, DROPIN_ETC "50-vendor.conf", 0, "dangling symlink to '/dev/zero'");
	mkdir_parents(zero);
	if (mknod(zero, S_IFCHR | 0666, makedev(1, 5)) < 0) {
		free(zero);
		skip();
	}
	free(zero);
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, DROPIN_ETC "50-vendor.conf", 0,
			"a character device other than the null device");
}

/* A drop-in that is a link out of the root is not read there: it resolves inside. */
static void test_dropin_link_out_of_root(void **state)
{
	struct fixture *f = *state;
	char out[] = "/tmp/hostprep-test-config-out-XXXXXX", *file = NULL;
	FILE *fp;

	assert_non_null(mkdtemp(out));
	assert_true(asprintf(&file, "%s/50-site.conf", out) > 0);
	fp = fopen(file, "w");
	assert_non_null(fp);
	fputs("[Host]\nApply=yes\n", fp);
	fclose(fp);
	symlink_rel(f, file, DROPIN_ETC "50-site.conf");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, DROPIN_ETC "50-site.conf", 0, "dangling symlink to");
	assert_false(f->c.apply);
	unlink(file);
	rmdir(out);
	free(file);
}

/* [root]/hostprep.conf.d/<file>:0 is printed as "<file>: reason" */
static void test_unreadable_dropin_is_error(void **state)
{
	struct fixture *f = *state;
	char *path;

	write_file(f, DROPIN_ETC "50-dir.conf/x", "");
	path = tree_path(f, DROPIN_ETC "50-dir.conf");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, DROPIN_ETC "50-dir.conf", 0, "not a regular file (a directory)");
	free(path);
}

/* config --validate: a mask-only drop-in over the installed config is valid. */
static void test_validate_mask_only_dropin(void **state)
{
	struct fixture *f = *state;
	char *files[2] = { tree_path(f, "elsewhere/60-mask.conf"), NULL };

	write_file(f, MAIN_USR, "[ACS:gpu-paths]\nSelect=upstream:class:0302\n");
	write_file(f, "elsewhere/60-mask.conf", "[ACS:gpu-paths]\nMask=0000000\n");
	assert_int_equal(config_validate(&f->c, &f->root, NULL, files, 0), 0);
	assert_int_equal(acs_config_get(&f->c)->n_rules, 1);
	assert_int_equal(acs_config_get(&f->c)->rules[0].n_select, 1);
	assert_string_equal(acs_config_get(&f->c)->rules[0].mask_at.file, files[0]);
	free(files[0]);
}

static int validate_as(struct fixture *f, char *const *files, const char *as)
{
	FILE *tmp = tmpfile();
	int saved, r;
	long n;

	assert_non_null(tmp);
	fflush(stderr);
	saved = dup(2);
	assert_true(dup2(fileno(tmp), 2) >= 0);
	r = config_validate_as(&f->c, &f->root, NULL, files, as, 0);
	fflush(stderr);
	assert_true(dup2(saved, 2) >= 0);
	close(saved);
	n = ftell(tmp);
	free(f->err);
	f->err = calloc(1, n + 1);
	rewind(tmp);
	assert_int_equal(fread(f->err, 1, n, tmp), (size_t)n);
	fclose(tmp);
	return r;
}

static int validate(struct fixture *f, char *const *files)
{
	return validate_as(f, files, NULL);
}

/* The file replaces the installed drop-in of its name; its errors carry its own name. */
static void test_validate_replaces_same_name(void **state)
{
	struct fixture *f = *state;
	char *files[2] = { tree_path(f, "new/50-site.conf"), NULL };

	write_file(f, MAIN_USR, "[ACS:gpu]\nSelect=class:0302\n");
	write_file(f, DROPIN_ETC "50-site.conf", "[IOMMU]\nExpect=bogus\n");
	write_file(f, "new/50-site.conf", "[IOMMU]\nExpect=off\n[Host]\nApply=maybe\n");
	assert_int_equal(validate(f, files), -EINVAL);
	assert_error_at(f, "new/50-site.conf", 4, "invalid boolean 'maybe'");
	assert_null(strstr(f->err, "bogus")); /* the installed one is replaced, not read */
	assert_int_equal(count_lines(f->err), 1);
	free(files[0]);
}

/* A file named hostprep.conf takes /etc/hostprep/hostprep.conf's place. */
static void test_validate_main_file(void **state)
{
	struct fixture *f = *state;
	char *files[2] = { tree_path(f, "new/hostprep.conf"), NULL };

	write_file(f, MAIN_USR, "[Host]\nApply=no\n");
	write_file(f, MAIN_ETC, "[Host]\nApply=bogus\n");
	write_file(f, DROPIN_ETC "90-iommu.conf", "[IOMMU]\nExpect=off\n");
	write_file(f, "new/hostprep.conf", "[Host]\nApply=yes\n[IOMMU]\nExpect=translated\n");
	assert_int_equal(validate(f, files), 0);
	assert_true(f->c.apply);
	assert_string_equal(f->c.apply_at.file, files[0]);
	assert_int_equal(iommu_config_get(&f->c)->expect, IOMMU_EXPECT_OFF); /* the drop-in still wins */
	free(files[0]);
}

static void test_validate_two_files_same_name(void **state)
{
	struct fixture *f = *state;
	char *files[3] = { tree_path(f, "a/50-x.conf"), tree_path(f, "b/50-x.conf"), NULL };

	write_file(f, "a/50-x.conf", "[Host]\nApply=no\n");
	write_file(f, "b/50-x.conf", "[Host]\nApply=no\n");
	assert_int_equal(validate(f, files), -EINVAL);
	assert_error_at(f, "b/50-x.conf", 0, "has the same name as");
	free(files[0]);
	free(files[1]);
}

/*
 * --validate-as NAME: Ansible's temp file (".../source") takes the place of the drop-in it
 * replaces. A new version valid only on top of its old one (the rule's Select= was there)
 * is refused at its own file:line; under its own name it was an extra drop-in read after
 * the old one, and passed.
 */
static void test_validate_as_replaces_named_dropin(void **state)
{
	struct fixture *f = *state;
	char *files[2] = { tree_path(f, "tmp/source"), NULL };

	write_file(f, DROPIN_ETC "50-site.conf", "[ACS:nics]\nSelect=0000:00:02.0\n");
	write_file(f, "tmp/source", "[ACS:nics]\nEnabled=yes\n");
	assert_int_equal(validate(f, files), 0); /* the old way: over the old version */
	config_done(&f->c);
	assert_int_equal(validate_as(f, files, "50-site.conf"), -EINVAL);
	assert_error_at(f, "tmp/source", 1, "[ACS:nics] is enabled but no file gives it a Select=");
	assert_int_equal(count_lines(f->err), 1);
	/* the same file as another drop-in's name is layered over 50-site.conf, and valid */
	assert_int_equal(validate_as(f, files, "60-site.conf"), 0);
	free(files[0]);
}

/* --validate-as hostprep.conf: the file takes /etc/hostprep/hostprep.conf's place. */
static void test_validate_as_main_file(void **state)
{
	struct fixture *f = *state;
	char *files[2] = { tree_path(f, "tmp/source"), NULL };

	write_file(f, MAIN_ETC, "[Host]\nApply=bogus\n");
	write_file(f, "tmp/source", "[Host]\nApply=yes\n");
	assert_int_equal(validate(f, files), -EINVAL); /* as "source": /etc's main file read too */
	assert_error_at(f, MAIN_ETC, 2, "invalid boolean 'bogus'");
	assert_int_equal(validate_as(f, files, "hostprep.conf"), 0);
	assert_true(f->c.apply);
	assert_string_equal(f->c.apply_at.file, files[0]);
	free(files[0]);
}

/* One bad selector is one error: no "has no Select=" after it. */
static void test_bad_selector_does_not_cascade(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC, "[ACS:gpu]\nSelect=upstream:class:03xx\nMask=0000000\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2, "invalid selector 'upstream:class:03xx'");
	assert_null(strstr(f->err, "Select=;"));
	assert_null(strstr(f->err, "Enabled=no"));
	assert_int_equal(count_lines(f->err), 1);
}

static void test_syntax_error_in_rule_does_not_cascade(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC,
		   "[ACS:gpu]\nSelect: class:0302\n[ACS:nic]\nSelect=class:0207\n"
		   "[ACS:nic]\nSelect=class:0200\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, MAIN_ETC, 2, "expected '=' between key and value");
	assert_error_at(f, MAIN_ETC, 5, "duplicate section [ACS:nic]");
	assert_int_equal(count_lines(f->err), 2);
}

/* A drop-in that empties a vendor rule's list is where the problem is, not the rule. */
static void test_select_reset_names_the_reset(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_USR, "[ACS:gpu]\nSelect=upstream:class:0302\n");
	write_file(f, DROPIN_ETC "50-site.conf", "[ACS:gpu]\nMask=0000000\nSelect=\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	assert_error_at(f, DROPIN_ETC "50-site.conf", 3,
			"this empty Select= leaves [ACS:gpu] with no selector");
	assert_null(strstr(f->err, "Enabled=no"));
	assert_int_equal(count_lines(f->err), 1);
}

/*
 * AllowNone='s default: only the vendor's own selection may be idle. A Select= of the
 * admin's (a drop-in's, the /etc file's, --config's) makes the rule theirs: no. Written
 * explicitly it is what it says, from anywhere; an empty one restores the default.
 */
static const struct acs_rule *rule_named(struct fixture *f, const char *name)
{
	for (size_t i = 0; i < acs_config_get(&f->c)->n_rules; i++)
		if (streq(acs_config_get(&f->c)->rules[i].name, name))
			return &acs_config_get(&f->c)->rules[i];
	fail_msg("no rule %s", name);
	return NULL;
}

static void test_allow_none_default_by_origin(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_USR,
		   "[ACS:vendor]\nSelect=p2p:class:0302\n"
		   "[ACS:extended]\nSelect=p2p:class:0302\n"
		   "[ACS:declared]\nSelect=p2p:class:0302\n"
		   "[ACS:strict]\nSelect=p2p:class:0302\n"
		   "[ACS:reset]\nSelect=p2p:class:0302\nAllowNone=no\n");
	write_file(f, DROPIN_ETC "50-site.conf",
		   "[ACS:extended]\nSelect=10b5:*\n"
		   "[ACS:declared]\nEnabled=yes\n"
		   "[ACS:strict]\nAllowNone=no\n"
		   "[ACS:reset]\nAllowNone=\n"
		   "[ACS:admin]\nSelect=10b5:*\n"
		   "[ACS:shared]\nSelect=10b5:*\nAllowNone=yes\n");
	assert_int_equal(load(f, NULL, 0), 0);
	assert_true(rule_named(f, "vendor")->allow_none);
	assert_false(rule_named(f, "vendor")->declared);
	assert_false(rule_named(f, "extended")->allow_none);
	assert_true(rule_named(f, "declared")->allow_none);
	assert_true(rule_named(f, "declared")->declared);
	assert_false(rule_named(f, "strict")->allow_none);
	assert_true(rule_named(f, "strict")->declared);
	assert_true(rule_named(f, "reset")->allow_none);
	assert_null(rule_named(f, "reset")->allow_none_at.file);
	assert_false(rule_named(f, "admin")->allow_none);
	assert_true(rule_named(f, "shared")->allow_none);
	assert_origin(f, &rule_named(f, "shared")->allow_none_at, DROPIN_ETC "50-site.conf", 13);
}

/* AllowVFIO=: no unless written; an empty one restores no; written, it declares the rule. */
static void test_allow_vfio(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_USR,
		   "[ACS:vendor]\nSelect=p2p:class:0302\n"
		   "[ACS:vms]\nSelect=p2p:class:0302\n"
		   "[ACS:reset]\nSelect=p2p:class:0302\nAllowVFIO=yes\n");
	write_file(f, DROPIN_ETC "50-site.conf",
		   "[ACS:vms]\nAllowVFIO=yes\n"
		   "[ACS:reset]\nAllowVFIO=\n");
	assert_int_equal(load(f, NULL, 0), 0);
	assert_false(rule_named(f, "vendor")->allow_vfio);
	assert_false(rule_named(f, "vendor")->declared);
	assert_true(rule_named(f, "vms")->allow_vfio);
	assert_true(rule_named(f, "vms")->declared);
	assert_origin(f, &rule_named(f, "vms")->allow_vfio_at, DROPIN_ETC "50-site.conf", 2);
	assert_false(rule_named(f, "reset")->allow_vfio);
	assert_null(rule_named(f, "reset")->allow_vfio_at.file);
}

/* No raw control bytes or invalid UTF-8 from a config file reach stderr. */
static void test_messages_escape_config_bytes(void **state)
{
	struct fixture *f = *state;

	write_file(f, MAIN_ETC,
		   "[Host]\nApply=\x1b[2J\x1b[31mREADY\rx\n"
		   "[IOMMU]\nExp\x7f"
		   "ect=\xff\xfe\n"
		   "[Bad\x1b(0Name\x07]\n"
		   "[ACS:gpu]\nSelect=class:03\xc2\x9b"
		   "1m caf\xc3\xa9\n");
	assert_int_equal(load(f, NULL, 0), -EINVAL);
	for (const char *p = f->err; *p; p++)
		if (*p != '\n' && ((unsigned char)*p < 0x20 || *p == 0x7f))
			fail_msg("raw control byte 0x%02x in stderr:\n%s", *p, f->err);
	assert_null(strstr(f->err, "\xff"));
	assert_null(strstr(f->err, "\xc2\x9b"));
	assert_error_at(f, MAIN_ETC, 2, "'\\x1b[2J\\x1b[31mREADY\\rx'");
	assert_error_at(f, MAIN_ETC, 4, "unknown key 'Exp\\x7fect'");
	assert_error_at(f, MAIN_ETC, 5, "unknown section [Bad\\x1b(0Name\\x07]");
	assert_error_at(f, MAIN_ETC, 7, "'class:03\\xc2\\x9b1m'");
	assert_non_null(strstr(f->err, "'caf\xc3\xa9'")); /* valid UTF-8 is shown as it is */
}

/* The file name is escaped too. */
static void test_messages_escape_file_names(void **state)
{
	struct fixture *f = *state;
	char *files[2] = { tree_path(f, "evil\x1b[8mname\n.conf"), NULL };

	write_file(f, "evil\x1b[8mname\n.conf", "[Nope]\n");
	assert_int_equal(load(f, files, 0), -EINVAL);
	assert_non_null(strstr(f->err, "evil\\x1b[8mname\\n.conf:1: unknown section [Nope]"));
	assert_int_equal(count_lines(f->err), 1);
	free(files[0]);
}

static void test_log_escape(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "plain text", "plain text" },
		{ "tab\there", "tab\\there" },
		{ "a\\b", "a\\\\b" },
		{ "\x1b[31m", "\\x1b[31m" },
		{ "del\x7f", "del\\x7f" },
		{ "caf\xc3\xa9 \xe2\x9c\x93", "caf\xc3\xa9 \xe2\x9c\x93" }, /* valid UTF-8 kept */
		{ "\xc2\x9b", "\\xc2\\x9b" },				    /* C1 CSI */
		{ "\xe2\x80\xae", "\\xe2\\x80\\xae" },			    /* RLO */
		{ "\xc0\xaf", "\\xc0\\xaf" },				    /* overlong '/' */
		{ "\xed\xa0\x80", "\\xed\\xa0\\x80" },			    /* surrogate */
		{ "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80" },		    /* > U+10FFFF */
		{ "cut\xe2\x9c", "cut\\xe2\\x9c" },			    /* truncated */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *e = log_escape(cases[i].in, strlen(cases[i].in));

		assert_non_null(e);
		assert_string_equal(e, cases[i].out);
		free(e);
	}
}

static char *dump_to_string(const struct config *c)
{
	char *out = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&out, &size);

	assert_non_null(m);
	assert_int_equal(config_dump(c, m), 0);
	fclose(m);
	return out;
}

/* The dump without its comment lines: what must survive a round trip. */
static char *strip_comments(const char *s)
{
	char *out = calloc(1, strlen(s) + 1), *o = out;

	assert_non_null(out);
	while (*s) {
		const char *nl = strchrnul(s, '\n');

		if (*s != '#') {
			memcpy(o, s, nl - s + (*nl ? 1 : 0));
			o += nl - s + (*nl ? 1 : 0);
		}
		s = *nl ? nl + 1 : nl;
	}
	return out;
}

/* `hostprep config` output is valid input: with --config and as a drop-in, same result. */
static void test_dump_round_trip(void **state)
{
	struct fixture *f = *state;
	char *files[2] = { tree_path(f, "snap/99-snapshot.conf"), NULL };
	char *first, *again, *layered;

	write_file(f, MAIN_USR,
		   "[Host]\nApply=yes\n[ACS:gpu]\nSelect=upstream:10de:* class:0302\n"
		   "Mask=0000000\n");
	write_file(f, DROPIN_ETC "50-site.conf",
		   "[ACS:gpu]\nExclude=0000:3a:00.0\n[IOMMU]\nExpect=passthrough\n"
		   "[ACS:nic]\nSelect=upstream:15b3:*\nEnabled=no\n");
	assert_int_equal(load(f, NULL, 0), 0);
	first = dump_to_string(&f->c);
	write_file(f, "snap/99-snapshot.conf", first);
	config_done(&f->c);

	assert_int_equal(load(f, files, 0), 0); /* --config FILE */
	again = dump_to_string(&f->c);
	config_done(&f->c);
	assert_int_equal(validate(f, files), 0); /* as a drop-in over the same config */
	assert_string_equal(f->err, "");
	layered = dump_to_string(&f->c);

	{
		char *a = strip_comments(first), *b = strip_comments(again),
		     *c = strip_comments(layered);

		assert_string_equal(a, b);
		assert_string_equal(a, c); /* lists reset: no selector counted twice */
		free(a);
		free(b);
		free(c);
	}
	assert_int_equal(acs_config_get(&f->c)->rules[0].n_select, 2);
	free(first);
	free(again);
	free(layered);
	free(files[0]);
}

struct words_seen {
	char seen[8][16];
	size_t n;
};

static int word_fn(void *ctx, const char *word)
{
	struct words_seen *w = ctx;

	snprintf(w->seen[w->n++], sizeof(w->seen[0]), "%s", word);
	if (strcmp(word, "bad") == 0)
		return -EINVAL;
	if (strcmp(word, "full") == 0)
		return -E2BIG;
	return 0;
}

/* Every word of a list key is tried (each bad one reported), a full list stops. */
static void test_for_each_word(void **state)
{
	struct words_seen w = {};

	assert_int_equal(config_for_each_word(" a\tbad  b bad c ", word_fn, &w), -EINVAL);
	assert_int_equal(w.n, 5);
	assert_string_equal(w.seen[0], "a");
	assert_string_equal(w.seen[4], "c");
	w.n = 0;
	assert_int_equal(config_for_each_word("a full b", word_fn, &w), -EINVAL);
	assert_int_equal(w.n, 2);
	w.n = 0;
	assert_int_equal(config_for_each_word("a b", word_fn, &w), 0);
	assert_int_equal(w.n, 2);
}

static void test_selector_list_limit(void **state)
{
	struct selector_entry *list = NULL;
	struct origin at = { .file = "x.conf", .line = 3 };
	struct selector sel = {};
	size_t n = 0;

	assert_int_equal(config_selector_list_add(&list, &n, 2, "Select", &sel, "a", &at), 0);
	assert_int_equal(config_selector_list_add(&list, &n, 2, "Select", &sel, "b", &at), 0);
	assert_int_equal(config_selector_list_add(&list, &n, 2, "Select", &sel, "c", &at), -E2BIG);
	assert_int_equal(n, 2);
	assert_string_equal(list[1].text, "b");
	assert_int_equal(list[1].at.line, 3);
	config_selector_list_clear(&list, &n);
	assert_null(list);
	assert_int_equal(n, 0);
}

struct test_rule {
	char name[8];
	int value;
	struct config_header header;
};

/* The parts' named rules: found by name, appended as a copy, limited, duplicates per file. */
static void test_rule_enter(void **state)
{
	struct test_rule *rules = NULL, t = { .name = "a", .value = 7 };
	struct origin at = { .file = "x.conf", .line = 3 };
	size_t n = 0;

	assert_int_equal(CONFIG_RULE_ENTER(&rules, &n, 2, &t, "T:", "NAME", &at, 1), 0);
	strcpy(t.name, "b");
	t.value = 8;
	at.line = 9;
	assert_int_equal(CONFIG_RULE_ENTER(&rules, &n, 2, &t, "T:", "NAME", &at, 1), 1);
	assert_int_equal(n, 2);
	assert_int_equal(rules[0].value, 7);
	assert_int_equal(rules[1].header.line, 9);
	/* a third name: over the limit, nothing appended */
	strcpy(t.name, "c");
	assert_int_equal(CONFIG_RULE_ENTER(&rules, &n, 2, &t, "T:", "NAME", &at, 1), -EINVAL);
	assert_int_equal(n, 2);
	/* "a" again in the same file: a duplicate; in a later file: the same rule, extended */
	strcpy(t.name, "a");
	t.value = 99;
	assert_int_equal(CONFIG_RULE_ENTER(&rules, &n, 2, &t, "T:", "NAME", &at, 1), -EINVAL);
	assert_int_equal(CONFIG_RULE_ENTER(&rules, &n, 2, &t, "T:", "NAME", &at, 2), 0);
	assert_int_equal(rules[0].value, 7); /* the template only seeds a new rule */
	assert_int_equal(rules[0].header.file, 2);
	free(rules);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_defaults_without_files),
		T(test_digest_known_answer),
		T(test_digest_parse_order),
		T(test_digest_changes),
		T(test_digest_empty_on_error),
		T(test_usr_lib_then_etc),
		T(test_dropins_in_lexical_order_across_dirs),
		T(test_dropin_etc_over_run_over_usr_lib),
		T(test_dropin_run_over_usr_lib),
		T(test_dropin_only_visible_conf_files),
		T(test_masked_dropin),
		T(test_list_accumulates_across_files),
		T(test_list_empty_assignment_resets),
		T(test_scalar_later_file_overrides),
		T(test_empty_scalar_restores_default),
		T(test_boolean_spellings),
		T(test_unknown_section),
		T(test_unknown_key),
		T(test_bad_boolean),
		T(test_bad_expect),
		T(test_bad_mask),
		T(test_bad_selector_with_reason),
		T(test_key_before_section),
		T(test_line_without_equals),
		T(test_indented_line_is_no_continuation),
		T(test_indented_selector_is_continuation),
		T(test_dangling_dropin_symlink),
		T(test_dangling_main_symlink),
		T(test_dangling_dropin_dir_symlink),
		T(test_other_char_device_is_no_mask),
		T(test_dropin_link_out_of_root),
		T(test_unreadable_dropin_is_error),
		T(test_validate_mask_only_dropin),
		T(test_validate_replaces_same_name),
		T(test_validate_main_file),
		T(test_validate_two_files_same_name),
		T(test_validate_as_replaces_named_dropin),
		T(test_validate_as_main_file),
		T(test_bad_selector_does_not_cascade),
		T(test_syntax_error_in_rule_does_not_cascade),
		T(test_select_reset_names_the_reset),
		T(test_allow_none_default_by_origin),
		T(test_allow_vfio),
		T(test_messages_escape_config_bytes),
		T(test_messages_escape_file_names),
		cmocka_unit_test(test_log_escape),
		cmocka_unit_test(test_for_each_word),
		cmocka_unit_test(test_selector_list_limit),
		cmocka_unit_test(test_rule_enter),
		T(test_dump_round_trip),
		T(test_colon_separator_rejected),
		T(test_inline_comments),
		T(test_bad_rule_names),
		T(test_duplicate_rule_in_one_file),
		T(test_same_rule_extended_in_dropin),
		T(test_all_errors_reported),
		T(test_line_too_long),
		T(test_enabled_rule_without_select),
		T(test_too_many_rules),
		T(test_too_many_selectors),
		T(test_file_too_big),
		T(test_root_owned_file_mode),
		T(test_root_owned_dropin_dir),
		T(test_root_owned_uid),
		T(test_explicit_files_replace_search),
		T(test_timespan),
		T(test_wait_key),
		T(test_item_enum),
		T(test_item_bool),
		T(test_item_uint64),
		T(test_items_unknown_and_lines),
		T(test_item_aer),
		T(test_item_sysctl),
		T(test_item_xid),
		T(test_item_gpu),
		T(test_item_workload),
		T(test_item_inventory),
		T(test_item_sinks),
		T(test_item_bond),
		T(test_item_kmod),
		T(test_item_topology),
		T(test_item_acs),
		T(test_item_port),
		T(test_dump),
		T(test_dump_explicit_file_path_as_given),
		T(test_section_header_junk),
		T(test_long_section_header_skips_its_keys),
		T(test_nul_byte),
		T(test_crlf_and_bom),
		T(test_failure_leaves_config_zeroed),
		T(test_iommu_expect_to_string),
		T(test_shipped_config),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

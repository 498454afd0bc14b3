/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdint.h>

#include "core/macro.h"
#include "pci/selector.h"
#include "core/sysroot.h"

/*
 * Configuration: systemd-style INI read with libinih.
 *
 * Search (each path under the root prefix), unless --config FILE replaces it:
 *   /usr/lib/hostprep/hostprep.conf, then /etc/hostprep/hostprep.conf (both are read;
 *       later keys override earlier ones)
 *   then *.conf drop-ins from /usr/lib/hostprep/hostprep.conf.d/, /run/hostprep/hostprep.conf.d/,
 *   /etc/hostprep/hostprep.conf.d/, merged by file name (same name: /etc over /run over
 *   /usr/lib), applied in lexical order of the file names.
 *
 * Sections and keys:
 *   [Host]      Apply=yes|no                  master switch (default no: audit only)
 *               Wait=TIMESPAN                 how long apply may wait for links (60s)
 *   every other section belongs to a config part (struct config_part below; the list
 *   is config_parts[] in src/modules.c), whose header documents its keys:
 *   [IOMMU] in src/iommu/iommu-config.h, [ACS:NAME] in src/acs/acs-config.h, ...
 *
 * Scalar keys: a later assignment overrides an earlier one. List keys take
 * whitespace-separated values. A rule's section repeated in the same file is an
 * error (duplicate rule); in a later file it extends/overrides the rule (that
 * is what drop-ins are for).
 * An empty assignment restores a scalar's default. Comments: lines starting
 * with '#' or ';', and ';' after whitespace. No continuation lines (an
 * indented line that is not Key=value is an error saying so), no
 * "Key: value". A drop-in that is a symlink to the null device (char 1:3) is
 * masked; a dangling symlink, any other device, a directory or an unreadable
 * file is an error naming the file.
 */

#define CONFIG_MAX_FILES     128
#define CONFIG_MAX_FILE_SIZE (64 * 1024)
#define CONFIG_MAX_LINE	     198 /* libinih's INI_MAX_LINE - 2; longer lines are an error */
#define CONFIG_MAX_SELECTORS 64	 /* per list */
#define CONFIG_DIGEST_HEX    64	 /* SHA-256 in hex */

/* Where a value came from. file points into config->files (owned there). */
struct origin {
	const char *file;
	unsigned line;
};

struct selector_entry {
	struct selector sel;
	char *text; /* as written */
	struct origin at;
};

/* One effective assignment, for `hostprep config` (like systemd-analyze cat-config). */
struct config_line {
	char *section;
	char *key;
	char *value;
	struct origin at;
	bool list; /* a list key: values accumulate, an empty assignment resets */
};

#define CONFIG_WAIT_DEFAULT_USEC (60ULL * 1000000)
#define CONFIG_TIMESPAN_MAX_USEC (3600ULL * 1000000)
/* "0", "90" (seconds), "500ms", "2min", "1min 30s"; -EINVAL/-ERANGE (over 1 h). */
int config_parse_timespan(const char *s, uint64_t *ret_usec);

/*
 * For config parts: "file:line: reason" through the log, the same shape as config.c's own
 * messages; always returns -EINVAL.
 */
_printf_(2, 3) int config_error_at(const struct origin *at, const char *fmt, ...);
/*
 * An enum value (Expect=, LinkLayer=, Mode=, ...) matches its name case-insensitively, as
 * booleans do: LinkLayer=infiniband is LinkLayer=InfiniBand. The dump prints the name.
 */
static inline bool config_enum_eq(const char *value, const char *name)
{
	return strcasecmp(value, name) == 0;
}
/*
 * The last header of a section or rule ([Module:x], [Port:x], [Bond:x], [Sysctl], ...): a
 * second header for the same one in the same file is a mistake, in a later file or drop-in
 * it extends it (systemd's merge). line 0: not seen yet.
 */
struct config_header {
	unsigned file; /* the loader's file number */
	unsigned line;
};

/*
 * Enter the section "[<prefix><name>]" at a header: "duplicate section [...] (first at
 * line N)" and -EINVAL when h was last entered in the same file, else h records this one.
 */
int config_header_enter(struct config_header *h, const char *prefix, const char *name,
			const struct origin *at, unsigned file_no);

/*
 * Enter the named rule "[<prefix><name>]" of a part ([Module:NAME], [Port:NAME],
 * [Bond:IFNAME]), kept in an array of rule structs of size bytes that each begin with their
 * name (a char array) and hold a struct config_header at header_offset: the rule of tmpl's
 * name, or a copy of tmpl (named, with its defaults and first header) appended, at most max
 * ("too many [<prefix><what>] sections (at most N)"). Returns the rule's index, -EINVAL
 * (too many, or a duplicate header in one file) or -ENOMEM.
 */
int config_rule_enter(void **rules, size_t *n, size_t size, size_t header_offset, size_t max,
		      const void *tmpl, const char *prefix, const char *what,
		      const struct origin *at, unsigned file_no);
#define CONFIG_RULE_ENTER(rules, n, max, tmpl, prefix, what, at, file_no)                       \
	({                                                                                      \
		_Static_assert(offsetof(typeof(**(rules)), name) == 0,                          \
			       "a rule begins with its name");                                  \
		config_rule_enter((void **)(rules), (n), sizeof(**(rules)),                     \
				  offsetof(typeof(**(rules)), header), (max), (tmpl), (prefix), \
				  (what), (at), (file_no));                                     \
	})

/*
 * A section that exists once ([Sysctl], [Topology], [Links], [Workload]): its state struct
 * begins with this head (checked by CONFIG_SINGLETON_ENTER).
 */
struct config_singleton {
	struct origin at; /* the first header */
	struct config_header header;
};

/*
 * Enter such a section at a header: the first header allocates *state (size bytes,
 * zeroed, head.at = at) and returns 1; a later one returns 0, or -EINVAL for a duplicate
 * within one file (config_header_enter); -ENOMEM.
 */
int config_singleton_enter(void **state, size_t size, const char *section, const struct origin *at,
			   unsigned file_no);
#define CONFIG_SINGLETON_ENTER(state, type, section, at, file_no)                             \
	({                                                                                    \
		_Static_assert(offsetof(type, head) == 0, #type " must begin with its head"); \
		config_singleton_enter(state, sizeof(type), section, at, file_no);            \
	})

/*
 * A list key's words (blank-separated; an empty value is the caller's reset and is never
 * passed here): fn(ctx, word) for each in order. Every word is tried, so each bad one is
 * reported; the first error is returned. -ENOMEM stops at once, and so does -E2BIG (a full
 * list, already reported), returned as -EINVAL.
 */
int config_for_each_word(const char *value, int (*fn)(void *ctx, const char *word), void *ctx);

/*
 * Append a parsed selector, with the word as written and where, to a list of at most max:
 * 0, -ENOMEM, or "KEY=: too many selectors" and -E2BIG (see config_for_each_word()).
 */
int config_selector_list_add(struct selector_entry **list, size_t *n, size_t max, const char *key,
			     const struct selector *sel, const char *word, const struct origin *at);
/*
 * One selector word of a key that names endpoints (devices, not the bridges above them):
 * "KEY=: invalid selector 'w': reason", or for an upstream: selector "KEY=: 'w': " and
 * upstream_why; -EINVAL.
 */
int config_parse_endpoint_selector(const char *key, const char *word, struct selector *ret,
				   const struct origin *at, const char *upstream_why);
/* Free a list and leave it empty. */
void config_selector_list_clear(struct selector_entry **list, size_t *n);

/*
 * A module's own configuration sections ([Module:*], [Port:*], [Bond:*] ...). config.c
 * lexes every file and hands the events of a section the part claims to it; the part logs
 * "file:line: reason" itself and returns -EINVAL, which config.c counts like its own errors
 * (exit 2, nothing done). Parts are listed once, in src/modules.c; the loader keeps each
 * part's state (NULL until its first section) in struct config, by the part's position in
 * that list, and knows it only as a pointer: config_part_state() gives it back, and each
 * part's header has a typed accessor over it (kmod_config_get() ...).
 */
typedef int (*config_line_fn)(void *userdata, const char *section, const char *key,
			      const char *value, const struct origin *at, bool list);

/*
 * A part's keys as data (systemd's conf-parser.h ConfigPerfItem): each key once, with the
 * parser that assigns it, the printer that dumps it and where its value and its origin
 * live in the part's state (the field and field_at). assign, `hostprep config` and the
 * doc check (tests/doc/run.sh greps CONFIG_ITEM_*("Key") go through the one table; the
 * table's order is the dump's and the unknown-key message's.
 */
struct config_item;
/*
 * Assign value (an empty one restores the default, it->dflt for the generic parsers, and
 * clears the origin): 0, or "file:line: KEY=: reason" and -EINVAL (-ENOMEM).
 */
typedef int (*config_item_parse_fn)(const struct config_item *it, void *state, const char *value,
				    const struct origin *at);
/*
 * The value as the dump writes it; buf (size bytes, CONFIG_ITEM_PRINT_MAX) for a printer
 * that formats; NULL: -ENOMEM.
 */
#define CONFIG_ITEM_PRINT_MAX 128
typedef const char *(*config_item_print_fn)(const struct config_item *it, const void *state,
					    char *buf, size_t size);
/*
 * A list key's dump, which a single printed value cannot be: n_lines() of them, each
 * through fn as part_lines() gives it (list true, an empty list as one empty assignment).
 */
struct config_item_list {
	size_t (*n_lines)(const struct config_item *it, const void *state);
	int (*lines)(const struct config_item *it, const void *state, const char *section,
		     config_line_fn fn, void *userdata);
};

/* An enum key's names (a string table, src/core/string-table.h), the default first. */
struct config_enum_names {
	const char *const *names;
	size_t n;
};

/*
 * An unsigned key's bounds and message: "KEY=: invalid <what> 'v' (<range>)", range a
 * printf format given min and max as unsigned long long ("a number from %llu to %llu").
 */
struct config_uint_range {
	uint64_t min, max;
	const char *what;
	const char *range;
};

struct config_item {
	const char *key;
	config_item_parse_fn parse;
	config_item_print_fn print;	     /* NULL for a list (list set) */
	const struct config_item_list *list; /* NULL for a scalar */
	const void *ltype; /* the parser's own argument (struct config_enum_names ...) */
	uint64_t dflt;	   /* what an empty value restores, for the generic parsers */
	size_t offset;	   /* of the value in the part's state */
	size_t at_offset;  /* of its struct origin (.file NULL: the default) */
};

/*
 * 0, and a compile error "KEY: field is not T" unless field of type is a T: a table entry
 * cannot point a parser at a field of another type.
 */
#define CONFIG_FIELD_IS(type, field, T)                                                      \
	(0 * sizeof(struct {                                                                 \
		 _Static_assert(__builtin_types_compatible_p(typeof(((type *)0)->field), T), \
				#field " is not " #T);                                       \
		 int dummy;                                                                  \
	 }))

/* field_at: where the origin is, for a field that is not named field##_at (an array's). */
#define CONFIG_ITEM_AT(key_, parse_, print_, ltype_, dflt_, type, field, field_at)                \
	{                                                                                         \
		.key = (key_), .parse = (parse_), .print = (print_), .ltype = (ltype_),           \
		.dflt = (dflt_), .offset = offsetof(type, field),                                 \
		.at_offset =                                                                      \
			offsetof(type, field_at) + CONFIG_FIELD_IS(type, field_at, struct origin) \
	}
#define CONFIG_ITEM(key_, parse_, print_, ltype_, type, field) \
	CONFIG_ITEM_AT(key_, parse_, print_, ltype_, 0, type, field, field##_at)
/*
 * A list key: parse_ is the part's own (an empty value empties the list), the dump its
 * list_ (struct config_item_list); field is the list's state (each entry keeps its own
 * origin), ltype_ the parser's.
 */
#define CONFIG_ITEM_LIST(key_, parse_, list_, ltype_, type, field)                    \
	{                                                                             \
		.key = (key_), .parse = (parse_), .list = (list_), .ltype = (ltype_), \
		.offset = offsetof(type, field)                                       \
	}
/*
 * An enum field (int-sized) named by table: matched in any case (config_enum_eq), "KEY=:
 * invalid value 'v' (use a, b or c)" otherwise; empty restores table[0]; dumped by name.
 */
#define CONFIG_ITEM_ENUM(key_, type, field, table)                                           \
	CONFIG_ITEM(key_, config_parse_enum, config_print_enum,                              \
		    (&(const struct config_enum_names){ (table), ARRAY_SIZE(table) }), type, \
		    field)
/*
 * A bool field: config_parse_boolean()'s spellings, "KEY=: invalid boolean 'v' (use yes
 * or no)" otherwise; empty restores dflt; dumped as yes or no.
 */
#define CONFIG_ITEM_BOOL_AT(key_, type, field, field_at, dflt_)          \
	CONFIG_ITEM_AT(key_, config_parse_bool, config_print_bool, NULL, \
		       (dflt_) + CONFIG_FIELD_IS(type, field, bool), type, field, field_at)
#define CONFIG_ITEM_BOOL(key_, type, field, dflt_) \
	CONFIG_ITEM_BOOL_AT(key_, type, field, field##_at, dflt_)
/*
 * A uint64_t field: decimal digits only (no sign, no blanks, no leading zero but "0")
 * from min to max of range (a struct config_uint_range), else its message; empty restores
 * dflt; dumped in decimal.
 */
#define CONFIG_ITEM_UINT64(key_, type, field, range_, dflt_)                     \
	CONFIG_ITEM_AT(key_, config_parse_uint64, config_print_uint64, (range_), \
		       (dflt_) + CONFIG_FIELD_IS(type, field, uint64_t), type, field, field##_at)

int config_parse_enum(const struct config_item *it, void *state, const char *value,
		      const struct origin *at);
const char *config_print_enum(const struct config_item *it, const void *state, char *buf,
			      size_t size);
int config_parse_bool(const struct config_item *it, void *state, const char *value,
		      const struct origin *at);
const char *config_print_bool(const struct config_item *it, const void *state, char *buf,
			      size_t size);
/* Decimal digits only, no sign, no leading zero but "0", at most max; -EINVAL. */
int config_parse_decimal(const char *s, uint64_t max, uint64_t *ret);
int config_parse_uint64(const struct config_item *it, void *state, const char *value,
			const struct origin *at);
const char *config_print_uint64(const struct config_item *it, const void *state, char *buf,
				size_t size);
/*
 * For a part's own parser: its field and origin in state, and its default (with the
 * origin cleared) for an empty value.
 */
void *config_item_field(const struct config_item *it, void *state);
const void *config_item_field_const(const struct config_item *it, const void *state);
struct origin *config_item_at(const struct config_item *it, void *state);

/* The item for key in items[n], NULL if there is none. */
const struct config_item *config_item_find(const struct config_item *items, size_t n,
					   const char *key);
/*
 * Assign key through items[n]: what its parser returns, or -ENOKEY (nothing logged: the
 * part's own "unknown key" message lists its keys) when the table has no such key.
 */
int config_items_assign(const struct config_item *items, size_t n, void *state, const char *key,
			const char *value, const struct origin *at);
/*
 * Every item's default, as an empty assignment gives it: a new section's state (which
 * holds no list yet, or only empty ones). -ENOMEM.
 */
int config_items_defaults(const struct config_item *items, size_t n, void *state);
/*
 * "unknown key 'K' in [SECTION] section (expected A, B or C)", the keys in table order;
 * -EINVAL.
 */
int config_items_unknown(const struct config_item *items, size_t n, const char *section,
			 const char *key, const struct origin *at);
/* How many lines the dump has for items[n] (a scalar one, a list as many as it gives). */
size_t config_items_n_lines(const struct config_item *items, size_t n, const void *state);
/* fn() for one item's effective value in section (a scalar line, as part_lines() gives). */
int config_item_line(const struct config_item *it, const void *state, const char *section,
		     config_line_fn fn, void *userdata);
/* The same for each of items[n], in table order (the dump order); stops at an error. */
int config_items_lines(const struct config_item *items, size_t n, const void *state,
		       const char *section, config_line_fn fn, void *userdata);

/* What the loader tells a part's finish(), once every file is read. */
struct config_finish {
	char *const *files; /* config->files: what each origin's file points into */
	const bool *vendor; /* per file: the vendor's own (below <root>/usr/lib/hostprep/) */
};

/*
 * Did the admin write the value at `at`: in a file outside the vendor directory, or one
 * named with --config (unless it is the vendor's own file: the same file gives the same
 * verdicts whether it is found there or named)? false for a default (at->file NULL).
 */
bool config_origin_is_admin(const struct config_finish *f, const struct origin *at);

struct config_part {
	const char *headers; /* for "unknown section": "[Module:NAME] or [GPUDirect]" */
	bool (*is_section)(const char *name);
	/* Enter a section; *state is allocated on first use. */
	int (*section)(void **state, const char *name, const struct origin *at, unsigned file_no);
	int (*assign)(void *state, const char *key, const char *value, const struct origin *at);
	/*
	 * Contradictions across the merged files, and what needs them all (such as who wrote
	 * a value), once all are read. state may be NULL.
	 */
	int (*finish)(void *state, const struct config_finish *f);
	/* The effective assignments for `hostprep config`, in dump order. */
	size_t (*n_lines)(const void *state);
	int (*lines)(const void *state, config_line_fn fn, void *userdata);
	void (*free)(void *state);
	/*
	 * Optional: a problem was reported on a line of the part's current section (a syntax
	 * error the lexer found, or -EINVAL from assign()), so that finish() need not add a
	 * follow-up error about the same section.
	 */
	void (*section_error)(void *state);
};

/*
 * A part's table, from its file's static part_section, part_assign, part_finish,
 * part_n_lines, part_lines and part_free; optional fields follow as designated
 * initializers (.section_error = ...).
 */
#define CONFIG_PART(headers_, is_section_, ...)                                              \
	{                                                                                    \
		.headers = (headers_), .is_section = (is_section_), .section = part_section, \
		.assign = part_assign, .finish = part_finish, .n_lines = part_n_lines,       \
		.lines = part_lines, .free = part_free, __VA_ARGS__                          \
	}

/* In dump order: each part's lines follow [Host]'s, in this order (src/modules.c). */
extern const struct config_part *const config_parts[];
extern const size_t n_config_parts;
#define CONFIG_PARTS_MAX 16 /* checked in src/modules.c */

struct config {
	bool apply;
	struct origin apply_at;
	/* [Host] Wait=: how long apply may wait for declared ports and bonds to come up */
	uint64_t wait_usec;
	struct origin wait_at;
	/* config_parts[i]'s state: NULL until its first section (config_part_state()) */
	void *parts[CONFIG_PARTS_MAX];

	char **files; /* every file read, in order; NULL-terminated */
	/*
	 * SHA-256 (nettle) of the files read, in that order, lower-case hex: for each its name
	 * as shown (config_file_shown()), a NUL, its size as 8 bytes little endian, its bytes.
	 * Hosts that read the same bytes under the same names share it (hostprep_info in the
	 * textfile, config_digest in the report); empty until a load succeeds.
	 */
	char digest[CONFIG_DIGEST_HEX + 1];
	/*
	 * Effective assignments in dump order: [Host], then each part's in config_parts[]
	 * order. Keys left at their default are included with at.file NULL.
	 */
	struct config_line *lines;
	size_t n_lines;
	/* Prefix config_dump strips from file names (the root for a search, none for --config). */
	struct sysroot display_root;
};

/*
 * The state of part p (one of config_parts[]) in c: NULL while none of its sections was
 * given. Each part's header wraps this in a typed accessor.
 */
const void *config_part_state(const struct config *c, const struct config_part *p);
/*
 * Put state in p's place, for a config built in memory rather than loaded (the unit
 * tests): config_done() frees it through p->free, so such a config is not passed there
 * unless state is the part's own.
 */
void config_part_set(struct config *c, const struct config_part *p, void *state);

enum config_flags {
	CONFIG_REQUIRE_ROOT_OWNED = 1 << 0, /* refuse files/dirs writable by anyone but root */
};

/*
 * Load and validate. explicit_files: NULL for the search above, else a
 * NULL-terminated list that replaces it (--config, config --validate).
 * Every problem is logged as "file:line: reason" on stderr; all files are
 * read before returning; -EINVAL if anything was wrong (config is then
 * freed and must not be used), -errno for I/O problems.
 * As implemented: -EPERM if the first problem was an unsafe file/dir
 * (CONFIG_REQUIRE_ROOT_OWNED), -EINVAL for any other logged problem
 * (including files that cannot be opened or read), -ENOMEM (not logged).
 */
int config_load(struct config *c, const struct sysroot *root, char *const *explicit_files,
		unsigned flags);
/*
 * config --validate: load as config_load() does, with files (NULL-terminated)
 * layered over the result as they would be used once installed. A file named
 * hostprep.conf takes the place of /etc/hostprep/hostprep.conf; any other is
 * a drop-in that takes the place of the installed drop-in of the same name
 * (in any drop-in directory) and is read in the drop-ins' lexical order.
 * With explicit_files (--config) those replace the search and files are read
 * after them, in order. Two files with the same name are an error.
 */
int config_validate(struct config *c, const struct sysroot *root, char *const *explicit_files,
		    char *const *files, unsigned flags);
/*
 * config --validate-as NAME FILE: the same, with every file of files taking the place of
 * NAME instead of its own name (an editor's or Ansible's temp file is named anything):
 * NAME is a drop-in's file name, or hostprep.conf for /etc's main file.
 */
int config_validate_as(struct config *c, const struct sysroot *root, char *const *explicit_files,
		       char *const *files, const char *as, unsigned flags);
/*
 * The search, with vendor_file read as the vendor's own file in place of
 * /usr/lib/hostprep/hostprep.conf (--vendor-config: what an installation of that file
 * says on this host, with its drop-ins; `make run` shows the shipped file so).
 */
int config_load_vendor(struct config *c, const struct sysroot *root, const char *vendor_file,
		       unsigned flags);
void config_done(struct config *c);
/* A file of c->files as the admin knows it: without the root prefix of a search. */
const char *config_file_shown(const struct config *c, const char *file);

/*
 * The merged effective config, valid input again: each assignment preceded by
 * a "# file:line" (or "# default") comment line, each list started with an
 * empty assignment so that the dump reads back to the same config with
 * --config and as a drop-in over the configuration it came from.
 */
int config_dump(const struct config *c, FILE *f);

/* yes/true/on/1 -> 1, no/false/off/0 -> 0 (any case), else -EINVAL: every boolean key. */
int config_parse_boolean(const char *s);

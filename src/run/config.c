// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Configuration, in three layers:
 *   lexer      libinih fed by our own line reader; emits events (section,
 *              key=value), each with file:line, and reports what inih would
 *              silently mangle (long lines, continuations, "Key: value").
 *   semantics  events -> struct config; every problem is logged as
 *              "file:line: reason" and counted, never fatal, so that one run
 *              shows them all.
 *   search     which files, in which order, and who may have written them.
 */
#include <assert.h>
#include <ctype.h>
#include <fcntl.h>
#include <inttypes.h>
#include <ini.h>
#include <nettle/sha2.h>
#include <stdarg.h>
#include <strings.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "run/config.h"
#include "core/log.h"

#define MAIN_NAME  "hostprep/hostprep.conf"
#define DROPIN_DIR "hostprep/hostprep.conf.d"
#define BLANKS	   " \t"

/* "file:line: reason", or "file: reason" for problems with the file as a whole. */
_printf_(3, 4) static void log_at(const char *file, unsigned line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line)
		log_error("%s:%u: %s", file, line, msg);
	else
		log_error("%s: %s", file, msg);
}

int config_error_at(const struct origin *at, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_at(at->file, at->line, "%s", msg);
	return -EINVAL;
}

int config_header_enter(struct config_header *h, const char *prefix, const char *name,
			const struct origin *at, unsigned file_no)
{
	if (h->line && h->file == file_no)
		return config_error_at(at, "duplicate section [%s%s] (first at line %u)", prefix,
				       name, h->line);
	h->file = file_no;
	h->line = at->line;
	return 0;
}

int config_rule_enter(void **rules, size_t *n, size_t size, size_t header_offset, size_t max,
		      const void *tmpl, const char *prefix, const char *what,
		      const struct origin *at, unsigned file_no)
{
	const char *name = tmpl;
	size_t i;
	int r;

	for (i = 0; i < *n; i++)
		if (streq((const char *)*rules + i * size, name))
			break;
	if (i == *n) {
		char *grown;

		if (*n >= max)
			return config_error_at(at, "too many [%s%s] sections (at most %zu)", prefix,
					       what, max);
		grown = reallocarray(*rules, *n + 1, size);
		if (!grown)
			return -ENOMEM;
		*rules = grown;
		memcpy(grown + i * size, tmpl, size);
		(*n)++;
	}
	r = config_header_enter((struct config_header *)((char *)*rules + i * size + header_offset),
				prefix, name, at, file_no);
	return r < 0 ? r : (int)i;
}

int config_singleton_enter(void **state, size_t size, const char *section, const struct origin *at,
			   unsigned file_no)
{
	struct config_singleton *head = *state;
	bool created = !head;
	int r;

	if (created) {
		head = calloc(1, size);
		if (!head)
			return -ENOMEM;
		head->at = *at;
		*state = head;
	}
	r = config_header_enter(&head->header, section, "", at, file_no);
	return r < 0 ? r : created;
}

/* ---- lexer ------------------------------------------------------------ */

enum conf_event_type {
	CONF_SECTION, /* name NULL: a header too broken to name, skip to the next one */
	CONF_ASSIGNMENT,
	CONF_ERROR, /* a syntax error was logged for this line */
};

struct conf_event {
	enum conf_event_type type;
	const char *name; /* section name or key */
	const char *value;
	struct origin at;
};

/* Returns 0, or a negative errno that stops lexing (only for fatal problems). */
typedef int (*conf_event_fn)(const struct conf_event *ev, void *userdata);

struct lexer {
	const char *file;
	const char *data;
	size_t size, pos;
	unsigned line;
	bool want_handler; /* the current line is one inih must hand to lex_handler */
	bool handled;
	/* The last Key= of the current section, for a continuation line's message. */
	char prev_key[CONFIG_MAX_LINE + 1];
	unsigned prev_line;
	unsigned n_errors;
	int r;
	conf_event_fn fn;
	void *userdata;
};

static void lex_emit(struct lexer *x, enum conf_event_type type, const char *name,
		     const char *value)
{
	struct conf_event ev = {
		.type = type,
		.name = name,
		.value = value,
		.at = { .file = x->file, .line = x->line },
	};

	if (x->r == 0)
		x->r = x->fn(&ev, x->userdata);
}

_printf_(2, 3) static void lex_error(struct lexer *x, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_at(x->file, x->line, "%s", msg);
	x->n_errors++;
	lex_emit(x, CONF_ERROR, NULL, NULL);
}

/*
 * inih does not tell us about section headers (Debian builds it without
 * INI_CALL_HANDLER_ON_NEW_SECTION), so the reader recognises them itself.
 */
static void lex_section(struct lexer *x, const char *line)
{
	char name[CONFIG_MAX_LINE + 1];
	const char *end = strchr(line, ']'), *rest;

	x->prev_key[0] = '\0';
	/* The broken header ends the previous section before its error is counted. */
	if (!end) {
		lex_emit(x, CONF_SECTION, NULL, NULL);
		lex_error(x, "missing ']' in section header");
		return;
	}
	rest = end + 1 + strspn(end + 1, BLANKS);
	if (*rest != '\n' && *rest != ';') {
		lex_emit(x, CONF_SECTION, NULL, NULL);
		lex_error(x, "unexpected text after ']'");
		return;
	}
	memcpy(name, line + 1, end - line - 1);
	name[end - line - 1] = '\0';
	lex_emit(x, CONF_SECTION, name, NULL);
}

/* Where inih will split a key=value line: first '=' or ':', unless a comment comes first. */
static char lex_separator(const char *s)
{
	bool was_space = false;

	for (; *s && *s != '\n'; s++) {
		if (*s == '=' || *s == ':')
			return *s;
		if (was_space && *s == ';')
			return 0;
		was_space = isspace((unsigned char)*s);
	}
	return 0;
}

/*
 * inih would append an indented line to the previous value; the reader has
 * stripped the indentation, so say here what the line was meant to be.
 */
static void lex_continuation(struct lexer *x)
{
	if (x->prev_key[0])
		lex_error(x,
			  "continuation lines are not supported: put the value on the '%s=' "
			  "line (line %u) or repeat '%s=' on this line",
			  x->prev_key, x->prev_line, x->prev_key);
	else
		lex_error(x, "indented line without '=': continuation lines are not "
			     "supported; write Key=value");
	x->handled = true;
}

static void lex_classify(struct lexer *x, const char *line, bool indented)
{
	switch (line[0]) {
	case '\n':
	case ';':
	case '#':
		return;
	case '[':
		lex_section(x, line);
		return;
	}
	x->want_handler = true;
	x->handled = false;
	if (indented && lex_separator(line) != '=') {
		lex_continuation(x);
	} else if (lex_separator(line) == ':') {
		/* inih's configparser-style "Key: value"; systemd-style files use '='. */
		lex_error(x, "expected '=' between key and value, not ':'");
		x->handled = true;
	}
}

/* A key line inih did not hand to the handler is one it rejected (no '='). */
static void lex_finish_line(struct lexer *x)
{
	if (x->want_handler && !x->handled)
		lex_error(x, "expected 'Key=value', '[Section]' or a comment");
	x->want_handler = false;
}

static bool lex_next_line(struct lexer *x, const char **ret, size_t *ret_len)
{
	const char *p = x->data + x->pos, *nl;
	size_t len;

	if (x->pos >= x->size)
		return false;
	nl = memchr(p, '\n', x->size - x->pos);
	len = nl ? (size_t)(nl - p) : x->size - x->pos;
	x->pos += len + (nl ? 1 : 0);
	x->line++;
	if (x->line == 1 && len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) {
		p += 3;
		len -= 3;
	}
	if (len > 0 && p[len - 1] == '\r')
		len--;
	*ret = p;
	*ret_len = len;
	return true;
}

/*
 * The ini_reader. It hands inih one line at a time (so x->line is the line
 * the handler runs for), refuses lines inih would cut in two, and strips
 * leading whitespace: an indented line would otherwise silently continue the
 * previous value (Debian builds inih with INI_ALLOW_MULTILINE).
 */
static char *lex_reader(char *buf, int size, void *stream)
{
	struct lexer *x = stream;
	const char *p;
	size_t len, lead;

	lex_finish_line(x);
	if (x->r < 0 || !lex_next_line(x, &p, &len))
		return NULL;
	/* All that inih's own isspace() skip would take, or it sees a continuation. */
	for (lead = 0; lead < len && isspace((unsigned char)p[lead]);)
		lead++;
	if (len > CONFIG_MAX_LINE || len + 2 > (size_t)size) {
		if (lead < len &&
		    p[lead] == '[') /* keys below it must not land in the previous section */
			lex_emit(x, CONF_SECTION, NULL, NULL);
		lex_error(x, "line too long (%zu characters, at most %d)", len, CONFIG_MAX_LINE);
		return strcpy(buf, "\n");
	}
	if (memchr(p, '\0', len)) {
		lex_error(x, "line contains a NUL byte");
		return strcpy(buf, "\n");
	}
	memcpy(buf, p + lead, len - lead);
	strcpy(buf + len - lead, "\n");
	lex_classify(x, buf, lead > 0);
	return buf;
}

static int lex_handler(void *user, const char *section, const char *name, const char *value)
{
	struct lexer *x = user;

	if (!x->want_handler || x->handled)
		return 1;
	x->handled = true;
	snprintf(x->prev_key, sizeof(x->prev_key), "%s", name);
	x->prev_line = x->line;
	lex_emit(x, CONF_ASSIGNMENT, name, value);
	return 1;
}

/* Returns the number of syntax errors (already logged), or a negative errno from fn. */
static int lex_buffer(const char *file, const char *data, size_t size, conf_event_fn fn,
		      void *userdata)
{
	struct lexer x = {
		.file = file,
		.data = data,
		.size = size,
		.fn = fn,
		.userdata = userdata,
	};
	int r;

	r = ini_parse_stream(lex_reader, &x, lex_handler, &x);
	if (x.r < 0)
		return x.r;
	if (r < 0)
		return -ENOMEM;
	if (r > 0 && x.n_errors == 0) {
		/* inih saw something our reader did not anticipate: still an error. */
		x.line = r;
		lex_error(&x, "syntax error");
	}
	return (int)x.n_errors;
}

/* ---- semantics -------------------------------------------------------- */

enum section_kind {
	SECTION_NONE, /* before the first header of a file */
	SECTION_HOST,
	SECTION_PART, /* a module's own section: loader.part parses it */
	SECTION_BAD,  /* already reported; its keys are skipped */
};

/*
 * A config file: found below the root (rel below top, opened inside it), or named on the
 * command line (rel NULL: --config, config --validate; opened by its path, which may lie
 * anywhere). path is what messages and origins show.
 */
struct cfile {
	const char *path;
	enum sysroot_top top;
	const char *rel;
	bool vendor; /* --vendor-config's file: the vendor's own wherever it lies */
};

struct seen_section {
	char *name;
	unsigned line;
};

struct loader {
	struct config *c;
	const struct sysroot *root;
	unsigned flags;
	char *const *overlay;	  /* config --validate: files layered over the rest, or NULL */
	const char *overlay_main; /* the one of them named hostprep.conf, if any */
	const char *overlay_as;	  /* config --validate-as: the name the one file takes */
	const char *vendor_main;  /* --vendor-config: read as /usr/lib's file, the vendor's */
	int error;		  /* the first failure, returned by config_load */
	size_t n_files;
	bool *vendor;	      /* per file in c->files: the vendor's own (file_is_vendor()) */
	char *vendor_in_root; /* "/usr/lib/hostprep/" with its links resolved inside the root */
	bool too_many_files;
	/* the file being parsed */
	unsigned file_no;
	struct seen_section *seen; /* its section headers so far: each once per file */
	size_t n_seen;
	enum section_kind section;
	size_t part;		  /* config_parts[part] owns the current SECTION_PART */
	struct sha256_ctx digest; /* config->digest, fed file by file (digest_file()) */
};

/*
 * Everything is logged where it is found, so the caller only needs to tell
 * "refused as unsafe" (-EPERM) from "wrong or unreadable" (-EINVAL).
 */
static void loader_fail(struct loader *l, int err)
{
	if (!l->error)
		l->error = err == -EPERM ? -EPERM : -EINVAL;
}

/* Log, count, and return -EINVAL, which on_event() treats as "go on". */
_printf_(3, 4) static int conf_error(struct loader *l, const struct origin *at, const char *fmt,
				     ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_at(at->file, at->line, "%s", msg);
	loader_fail(l, -EINVAL);
	return -EINVAL;
}

int config_parse_boolean(const char *s)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (strcasecmp(s, yes[i]) == 0)
			return 1;
		if (strcasecmp(s, no[i]) == 0)
			return 0;
	}
	return -EINVAL;
}

/* "0", "90", "90s", "500ms", "2min", "1min 30s": systemd's time span, seconds by default. */
int config_parse_timespan(const char *s, uint64_t *ret_usec)
{
	static const struct {
		const char *unit;
		uint64_t usec;
	} units[] = {
		{ "us", 1 },	     { "ms", 1000 },	{ "sec", 1000000 },   { "s", 1000000 },
		{ "min", 60000000 }, { "m", 60000000 }, { "h", 3600000000u }, { "", 1000000 },
	};
	uint64_t total = 0;
	bool any = false;

	for (;;) {
		unsigned long long v;
		char *end;
		size_t i;

		s += strspn(s, " ");
		if (!*s)
			break;
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		errno = 0;
		v = strtoull(s, &end, 10);
		if (errno || v > CONFIG_TIMESPAN_MAX_USEC)
			return -ERANGE;
		for (i = 0; i < ARRAY_SIZE(units); i++)
			if (strneq(end, units[i].unit, strlen(units[i].unit)) &&
			    !isalpha((unsigned char)end[strlen(units[i].unit)]))
				break;
		if (i == ARRAY_SIZE(units))
			return -EINVAL;
		total += v * units[i].usec;
		if (total > CONFIG_TIMESPAN_MAX_USEC)
			return -ERANGE;
		s = end + strlen(units[i].unit);
		any = true;
	}
	if (!any)
		return -EINVAL;
	*ret_usec = total;
	return 0;
}

/* [Host] Wait=: a time span (config_parse_timespan()); empty restores the default. */
static int parse_wait(const struct config_item *it, void *state, const char *value,
		      const struct origin *at)
{
	struct config *c = state;
	uint64_t usec;

	if (value[0] == '\0') {
		c->wait_usec = it->dflt;
		c->wait_at = (struct origin){};
		return 0;
	}
	if (config_parse_timespan(value, &usec) < 0)
		return config_error_at(
			at, "Wait=: invalid time span '%s' (use e.g. 0, 60s, 2min; at most 1h)",
			value);
	c->wait_usec = usec;
	c->wait_at = *at;
	return 0;
}

/* The span in seconds when exact, else in ms or us: "60s", "1500ms". */
static const char *print_wait(const struct config_item *it, const void *state, char *buf,
			      size_t size)
{
	uint64_t u = ((const struct config *)state)->wait_usec;

	if (u == 0)
		snprintf(buf, size, "0");
	else if (u % 1000000 == 0)
		snprintf(buf, size, "%" PRIu64 "s", u / 1000000);
	else if (u % 1000 == 0)
		snprintf(buf, size, "%" PRIu64 "ms", u / 1000);
	else
		snprintf(buf, size, "%" PRIu64 "us", u);
	return buf;
}

/* [Host]'s keys, in dump order; a config starts from their defaults (config_start()). */
static const struct config_item host_items[] = {
	CONFIG_ITEM_BOOL("Apply", struct config, apply, false),
	CONFIG_ITEM_AT("Wait", parse_wait, print_wait, NULL, CONFIG_WAIT_DEFAULT_USEC,
		       struct config, wait_usec, wait_at),
};

int config_for_each_word(const char *value, int (*fn)(void *ctx, const char *word), void *ctx)
{
	_cleanup_(freep) char *copy = strdup(value);
	char *save = NULL;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	for (char *w = strtok_r(copy, BLANKS, &save); w; w = strtok_r(NULL, BLANKS, &save)) {
		int k = fn(ctx, w);

		if (k == -ENOMEM)
			return k;
		if (k == -E2BIG)
			return -EINVAL; /* the list is full: the next words would only repeat it */
		if (k < 0 && r == 0)
			r = k;
	}
	return r;
}

int config_parse_endpoint_selector(const char *key, const char *word, struct selector *ret,
				   const struct origin *at, const char *upstream_why)
{
	const char *reason = NULL;

	if (selector_parse(word, ret, &reason) < 0)
		return config_error_at(at, "%s=: invalid selector '%s': %s", key, word, reason);
	if (ret->upstream)
		return config_error_at(at, "%s=: '%s': %s", key, word, upstream_why);
	return 0;
}

int config_selector_list_add(struct selector_entry **list, size_t *n, size_t max, const char *key,
			     const struct selector *sel, const char *word, const struct origin *at)
{
	struct selector_entry *grown;
	char *text;

	if (*n >= max) {
		config_error_at(at, "%s=: too many selectors (at most %zu)", key, max);
		return -E2BIG;
	}
	text = strdup(word);
	grown = text ? reallocarray(*list, *n + 1, sizeof(**list)) : NULL;
	if (!grown) {
		free(text);
		return -ENOMEM;
	}
	grown[(*n)++] = (struct selector_entry){ .sel = *sel, .text = text, .at = *at };
	*list = grown;
	return 0;
}

void config_selector_list_clear(struct selector_entry **list, size_t *n)
{
	for (size_t i = 0; i < *n; i++)
		free((*list)[i].text);
	free(*list);
	*list = NULL;
	*n = 0;
}

/* config_parts[]'s index of p, or n_config_parts if it is not listed there. */
static size_t part_index(const struct config_part *p)
{
	size_t i;

	for (i = 0; i < n_config_parts; i++)
		if (config_parts[i] == p)
			break;
	return i;
}

const void *config_part_state(const struct config *c, const struct config_part *p)
{
	size_t i = part_index(p);

	return i < n_config_parts ? c->parts[i] : NULL;
}

void config_part_set(struct config *c, const struct config_part *p, void *state)
{
	size_t i = part_index(p);

	assert(i < n_config_parts);
	c->parts[i] = state;
}

/* A part logs its own "file:line: reason"; count it like ours. */
static int part_result(struct loader *l, int r)
{
	if (r == -EINVAL)
		loader_fail(l, r);
	return r;
}

static int enter_part(struct loader *l, const struct conf_event *ev, size_t i)
{
	int r = part_result(
		l, config_parts[i]->section(&l->c->parts[i], ev->name, &ev->at, l->file_no));

	if (r >= 0) {
		l->section = SECTION_PART;
		l->part = i;
	}
	return r;
}

/* The index of the part that claims the section, n_config_parts if none does. */
static size_t find_part(const char *name)
{
	size_t i;

	for (i = 0; i < n_config_parts; i++)
		if (config_parts[i]->is_section(name))
			break;
	return i;
}

/* "[Host], [IOMMU], [ACS:NAME], [Module:NAME] or [GPUDirect], ..." */
static int unknown_section(struct loader *l, const struct conf_event *ev)
{
	_cleanup_(freep) char *known = strdup("[Host]");

	for (size_t i = 0; known && i < n_config_parts; i++) {
		char *more;

		if (asprintf(&more, "%s, %s", known, config_parts[i]->headers) < 0)
			return -ENOMEM;
		free(known);
		known = more;
	}
	if (!known)
		return -ENOMEM;
	return conf_error(l, &ev->at, "unknown section [%s] (expected one of %s)", ev->name, known);
}

static void seen_clear(struct loader *l)
{
	for (size_t i = 0; i < l->n_seen; i++)
		free(l->seen[i].name);
	free(l->seen);
	l->seen = NULL;
	l->n_seen = 0;
}

/*
 * Every section at most once per file, [Host] and [IOMMU] as [ACS:NAME]: a second one
 * further down (a pasted "[Host] Apply=yes" below "[Host] Apply=no") is a mistake the
 * admin cannot see in the merged result. Drop-ins override whole sections by design.
 */
static int seen_once(struct loader *l, const struct conf_event *ev)
{
	struct seen_section *grown;

	for (size_t i = 0; i < l->n_seen; i++)
		if (streq(l->seen[i].name, ev->name))
			return conf_error(l, &ev->at, "duplicate section [%s] (first at line %u)",
					  ev->name, l->seen[i].line);
	grown = reallocarray(l->seen, l->n_seen + 1, sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	l->seen = grown;
	grown[l->n_seen].name = strdup(ev->name);
	if (!grown[l->n_seen].name)
		return -ENOMEM;
	grown[l->n_seen++].line = ev->at.line;
	return 0;
}

static int on_section(struct loader *l, const struct conf_event *ev)
{
	int r;

	l->section = SECTION_BAD;
	if (!ev->name) /* the lexer has said why */
		return 0;
	r = seen_once(l, ev);
	if (r < 0)
		return r;
	if (streq(ev->name, "Host"))
		l->section = SECTION_HOST;
	else if (find_part(ev->name) < n_config_parts)
		return enter_part(l, ev, find_part(ev->name));
	else
		return unknown_section(l, ev);
	return 0;
}

static int on_assignment(struct loader *l, const struct conf_event *ev)
{
	int r;

	if (l->section == SECTION_BAD)
		return 0;
	if (l->section == SECTION_NONE)
		return conf_error(l, &ev->at, "'%s=' before any [Section] header", ev->name);
	if (l->section == SECTION_PART)
		return part_result(l, config_parts[l->part]->assign(l->c->parts[l->part], ev->name,
								    ev->value, &ev->at));
	r = config_items_assign(host_items, ARRAY_SIZE(host_items), l->c, ev->name, ev->value,
				&ev->at);
	if (r == -ENOKEY)
		return conf_error(l, &ev->at, "unknown key '%s' in [Host] section", ev->name);
	return part_result(l, r);
}

static int on_event(const struct conf_event *ev, void *userdata)
{
	struct loader *l = userdata;
	int r;

	switch (ev->type) {
	case CONF_SECTION:
		r = on_section(l, ev);
		break;
	case CONF_ASSIGNMENT:
		r = on_assignment(l, ev);
		break;
	default:
		r = -EINVAL; /* the lexer has logged it */
		break;
	}
	if (r == -EINVAL && l->section == SECTION_PART && config_parts[l->part]->section_error)
		config_parts[l->part]->section_error(l->c->parts[l->part]);
	return r == -EINVAL ? 0 : r; /* logged and counted: keep going to find the rest */
}

bool config_origin_is_admin(const struct config_finish *f, const struct origin *at)
{
	if (!at->file)
		return false;
	for (size_t i = 0; f->files[i]; i++)
		if (f->files[i] == at->file)
			return !f->vendor[i];
	return true;
}

/* <root>/usr/lib/hostprep/ as the root resolves it (as given when it does not exist). */
static int vendor_in_root(const struct sysroot *root, char **ret)
{
	_cleanup_(freep) char *real = NULL;
	int r = sysroot_canonical(root, SYSROOT_USR_LIB, &real, "hostprep");

	if (r == -ENOMEM)
		return r;
	return asprintf(ret, "%s/", r >= 0 ? real : "/usr/lib/hostprep") < 0 ? -ENOMEM : 0;
}

/*
 * The vendor's own file: below <root>/usr/lib/hostprep/ once its links are resolved
 * (inside the root for a file found there; by realpath(3) for one named with --config,
 * which may lie anywhere). A link in /etc to the vendor's file is the vendor's.
 */
static bool file_is_vendor(struct loader *l, const struct cfile *f)
{
	const char *root = l->root->real ? l->root->real : strempty(l->root->dir);
	size_t n = strlen(root);
	_cleanup_(freep) char *real = NULL;

	if (f->rel)
		return sysroot_canonical(l->root, f->top, &real, "%s", f->rel) >= 0 &&
		       strneq(real, l->vendor_in_root, strlen(l->vendor_in_root));
	real = realpath(f->path, NULL);
	return real && strneq(real, root, n) &&
	       strneq(real + n, l->vendor_in_root, strlen(l->vendor_in_root));
}

/* Each part's checks that need every file merged first. */
static int finish_parts(struct loader *l)
{
	const struct config_finish f = { .files = l->c->files, .vendor = l->vendor };

	for (size_t i = 0; i < n_config_parts; i++) {
		int r = part_result(l, config_parts[i]->finish(l->c->parts[i], &f));

		if (r == -ENOMEM)
			return r;
	}
	return 0;
}

/* ---- effective lines, for config_dump ---------------------------------- */

static int add_line_full(struct config *c, const char *section, const char *key, const char *value,
			 const struct origin *at, bool list)
{
	struct config_line *line = &c->lines[c->n_lines];

	*line = (struct config_line){ .at = *at, .list = list };
	line->section = strdup(section);
	line->key = strdup(key);
	line->value = strdup(value);
	c->n_lines++; /* counted even when half-built, so that config_done frees it */
	if (!line->section || !line->key || !line->value)
		return -ENOMEM;
	return 0;
}

static int add_part_line(void *c, const char *section, const char *key, const char *value,
			 const struct origin *at, bool list)
{
	return add_line_full(c, section, key, value, at, list);
}

static int build_lines(struct loader *l)
{
	struct config *c = l->c;
	size_t n = config_items_n_lines(host_items, ARRAY_SIZE(host_items), c);
	int r;

	for (size_t i = 0; i < n_config_parts; i++)
		n += config_parts[i]->n_lines(c->parts[i]);
	c->lines = calloc(n, sizeof(*c->lines));
	if (!c->lines)
		return -ENOMEM;
	r = config_items_lines(host_items, ARRAY_SIZE(host_items), c, "Host", add_part_line, c);
	for (size_t i = 0; r >= 0 && i < n_config_parts; i++)
		r = config_parts[i]->lines(c->parts[i], add_part_line, c);
	return r;
}

/* "# file:line" or "# default" on a line of its own: after a value '#' is not a comment. */
static int dump_origin(const struct config *c, const struct origin *at, FILE *f)
{
	_cleanup_(freep) char *file = NULL;
	const char *shown;

	if (!at->file)
		return fputs("# default\n", f) < 0 ? -EIO : 0;
	shown = sysroot_strip(&c->display_root, at->file);
	file = log_escape(shown, strlen(shown)); /* a newline in a name must not end the comment */
	if (!file)
		return -ENOMEM;
	return fprintf(f, "# %s:%u\n", file, at->line) < 0 ? -EIO : 0;
}

/* Is line i the first of its list (Select=, Exclude=, Parameter=...) within its section? */
static bool starts_list(const struct config *c, size_t i)
{
	const struct config_line *line = &c->lines[i];

	if (!line->list)
		return false;
	return i == 0 || !streq(c->lines[i - 1].key, line->key) ||
	       !streq(c->lines[i - 1].section, line->section);
}

/*
 * Output that is valid input, read back to the same config: with --config,
 * and as a drop-in too, because each list starts with an empty assignment.
 */
int config_dump(const struct config *c, FILE *f)
{
	const char *prev = NULL;
	int r = 0;

	for (size_t i = 0; r >= 0 && i < c->n_lines; i++) {
		const struct config_line *line = &c->lines[i];

		if (!prev || !streq(prev, line->section))
			fprintf(f, "%s[%s]\n", prev ? "\n" : "", line->section);
		prev = line->section;
		if (starts_list(c, i))
			fprintf(f, "# reset: the %s= lines below are the whole list\n%s=\n",
				line->key, line->key);
		r = dump_origin(c, &line->at, f);
		fprintf(f, "%s=%s\n", line->key, line->value);
	}
	if (r < 0)
		return r;
	if (fflush(f) != 0 || ferror(f))
		return -EIO;
	return 0;
}

/* ---- files ------------------------------------------------------------- */

_printf_(4, 5) static int file_fail(struct loader *l, const char *path, int err, const char *fmt,
				    ...)
{
	char msg[512];
	va_list ap;

	errno = -err; /* for %m */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_at(path, 0, "%s", msg);
	loader_fail(l, err);
	return err;
}

/* Only root may be able to change what hostprep writes to the hardware at boot. */
static int check_owner(struct loader *l, const char *path, const struct stat *st)
{
	if (!(l->flags & CONFIG_REQUIRE_ROOT_OWNED))
		return 0;
	if (st->st_uid != 0)
		return file_fail(l, path, -EPERM, "owned by uid %u, not root, refusing",
				 (unsigned)st->st_uid);
	if (st->st_mode & 022)
		return file_fail(l, path, -EPERM,
				 "writable by non-root user or group (mode %04o), refusing",
				 (unsigned)(st->st_mode & 07777));
	return 0;
}

static int read_fd(int fd, char **ret, size_t *ret_size)
{
	_cleanup_(freep) char *buf = malloc(CONFIG_MAX_FILE_SIZE + 1);
	size_t n = 0;

	if (!buf)
		return -ENOMEM;
	while (n <= CONFIG_MAX_FILE_SIZE) {
		ssize_t k = read(fd, buf + n, CONFIG_MAX_FILE_SIZE + 1 - n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		if (k == 0)
			break;
		n += k;
	}
	if (n > CONFIG_MAX_FILE_SIZE)
		return -EFBIG;
	buf[n] = '\0';
	*ret = TAKE_PTR(buf);
	*ret_size = n;
	return 0;
}

/*
 * ENOENT from open(): truly absent (0, when that is fine), or a symlink whose
 * target is missing, which is an error: the file the admin put there would
 * otherwise be silently ignored.
 */
static int open_failed_enoent(struct loader *l, const struct cfile *f, bool missing_ok)
{
	const char *path = f->path;
	char target[PATH_MAX];
	int n;

	if (f->rel)
		n = sysroot_readlink(l->root, f->top, target, sizeof(target), "%s", f->rel);
	else if ((n = readlink(path, target, sizeof(target) - 1)) >= 0)
		target[n] = '\0';
	else
		n = -errno;
	if (n == -ENOENT && missing_ok)
		return 0;
	if (n < 0)
		return file_fail(l, path, -ENOENT, "cannot open: %m");
	if (sysroot_link_is_null(target)) { /* below a --root without a /dev/null of its own */
		log_debug("%s: masked, skipping", path);
		return 0;
	}
	return file_fail(l, path, -ENOENT,
			 "dangling symlink to '%s' (remove it; only a link to the null device "
			 "masks a file)",
			 target);
}

/* Linux's null device is char 1:3 (devices.txt); only that masks, as in systemd. */
static bool is_null_device(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && st->st_rdev == makedev(1, 3);
}

/*
 * The checked fd of a config file; -1 when there is nothing to read (missing
 * and missing_ok, masked, or a problem already logged and counted).
 */
/* The file's fd or negative errno; O_NONBLOCK: a FIFO in a drop-in dir must not hang the boot. */
static int open_cfile(struct loader *l, const struct cfile *f)
{
	const int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
	int fd;

	if (f->rel)
		return sysroot_openat(l->root, f->top, flags, "%s", f->rel);
	fd = open(f->path, flags);
	return fd < 0 ? -errno : fd;
}

static int open_config_file(struct loader *l, const struct cfile *f, bool missing_ok)
{
	_cleanup_(closep) int fd = open_cfile(l, f);
	const char *path = f->path;
	struct stat st;

	if (fd == -ENOENT) {
		open_failed_enoent(l, f, missing_ok);
		return -1;
	}
	if (fd < 0 || fstat(fd, &st) < 0) {
		file_fail(l, path, fd < 0 ? fd : -errno, "cannot open: %m");
		return -1;
	}
	if (is_null_device(&st)) {
		log_debug("%s: masked, skipping", path);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		file_fail(l, path, -EINVAL, "not a regular file (%s)",
			  S_ISCHR(st.st_mode)	? "a character device other than the null device"
			  : S_ISDIR(st.st_mode) ? "a directory"
						: "a FIFO, socket or block device");
		return -1;
	}
	if (check_owner(l, path, &st) < 0)
		return -1;
	return TAKE_FD(fd);
}

/* Remember the path: every origin of this file points into c->files. */
static int add_file(struct loader *l, const struct cfile *f, const char **ret)
{
	char *copy = strdup(f->path);

	if (!copy)
		return -ENOMEM;
	l->vendor[l->n_files] = f->vendor || file_is_vendor(l, f);
	l->c->files[l->n_files++] = copy;
	*ret = copy;
	return 0;
}

/*
 * One file into the digest: its name as shown (without the root prefix, so a host and
 * its image under --root agree), a NUL, its size (8 bytes, little endian), its bytes.
 * Name and size framed so that no two lists of files give the same stream.
 */
static void digest_file(struct loader *l, const char *path, const char *data, size_t size)
{
	const char *shown = sysroot_strip(&l->c->display_root, path);
	uint8_t len[8];

	for (size_t i = 0; i < sizeof(len); i++)
		len[i] = (uint8_t)((uint64_t)size >> (8 * i));
	sha256_update(&l->digest, strlen(shown) + 1, (const uint8_t *)shown);
	sha256_update(&l->digest, sizeof(len), len);
	sha256_update(&l->digest, size, (const uint8_t *)data);
}

static void digest_finish(struct loader *l)
{
	uint8_t d[SHA256_DIGEST_SIZE];

	sha256_digest(&l->digest, sizeof(d), d);
	for (size_t i = 0; i < sizeof(d); i++)
		snprintf(l->c->digest + 2 * i, 3, "%02x", d[i]);
}

/* Read and parse one file. Problems are logged and counted; <0 only for fatal ones. */
static int load_file(struct loader *l, const struct cfile *f, bool missing_ok)
{
	const char *path = f->path;
	_cleanup_(freep) char *data = NULL;
	_cleanup_(closep) int fd = -1;
	const char *file;
	size_t size = 0;
	int r;

	if (l->n_files >= CONFIG_MAX_FILES) {
		if (!l->too_many_files)
			file_fail(l, path, -EINVAL,
				  "too many config files (at most %d), ignoring "
				  "this one and the rest",
				  CONFIG_MAX_FILES);
		l->too_many_files = true;
		return 0;
	}
	fd = open_config_file(l, f, missing_ok);
	if (fd < 0)
		return 0;
	r = read_fd(fd, &data, &size);
	if (r == -EFBIG)
		file_fail(l, path, -EINVAL, "too big (more than %d bytes)", CONFIG_MAX_FILE_SIZE);
	else if (r < 0 && r != -ENOMEM)
		file_fail(l, path, r, "cannot read: %m");
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	r = add_file(l, f, &file);
	if (r < 0)
		return r;
	digest_file(l, file, data, size);
	l->file_no++;
	l->section = SECTION_NONE;
	r = lex_buffer(file, data, size, on_event, l);
	seen_clear(l);
	if (r < 0)
		return r;
	if (r > 0)
		loader_fail(l, -EINVAL);
	return 0;
}

/* ---- search ------------------------------------------------------------ */

/* Ascending priority: for drop-ins of the same name the last one wins. */
static const enum sysroot_top search_tops[] = { SYSROOT_USR_LIB, SYSROOT_RUN, SYSROOT_ETC };

struct dropin {
	char *name;
	enum sysroot_top top;
	const char *overlay; /* a file being validated that takes this name's place, or NULL */
};

struct dropins {
	struct dropin *v;
	size_t n;
};

static void dropins_done(struct dropins *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].name);
	free(d->v);
}

/* A missing directory is fine; one that others can write to is refused (-EPERM, logged). */
static int check_dir(struct loader *l, enum sysroot_top top, const char *path)
{
	struct stat st;
	int r;

	if (!(l->flags & CONFIG_REQUIRE_ROOT_OWNED))
		return 0;
	r = sysroot_stat(l->root, top, 0, &st, "hostprep");
	if (r < 0)
		return r == -ENOENT ? 0 : file_fail(l, path, r, "cannot stat: %m");
	return check_owner(l, path, &st);
}

static bool is_dropin_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > strlen(".conf") && streq(name + n - strlen(".conf"), ".conf");
}

static int dropins_add(struct loader *l, struct dropins *d, const char *dir, const char *name,
		       enum sysroot_top top)
{
	struct dropin *grown;

	for (size_t i = 0; i < d->n; i++)
		if (streq(d->v[i].name, name)) {
			d->v[i].top = top; /* same name: the higher-priority directory wins */
			d->v[i].overlay = NULL;
			return 0;
		}
	if (d->n >= CONFIG_MAX_FILES)
		return file_fail(l, dir, -EINVAL, "too many drop-ins (at most %d)",
				 CONFIG_MAX_FILES);
	grown = reallocarray(d->v, d->n + 1, sizeof(*d->v));
	if (!grown)
		return -ENOMEM;
	d->v = grown;
	d->v[d->n].name = strdup(name);
	if (!d->v[d->n].name)
		return -ENOMEM;
	d->v[d->n].overlay = NULL;
	d->v[d->n++].top = top;
	return 0;
}

static int list_dropin_dir(struct loader *l, struct dropins *d, enum sysroot_top top)
{
	_cleanup_(freep) char *dir = sysroot_path(l->root, top, DROPIN_DIR);
	_cleanup_(closedirp) DIR *dh = NULL;
	_cleanup_(closep) int fd = -1;
	struct dirent *de;
	struct stat st;
	int r;

	if (!dir)
		return -ENOMEM;
	fd = sysroot_openat(l->root, top, O_RDONLY | O_DIRECTORY, DROPIN_DIR);
	if (fd == -ENOENT)
		return open_failed_enoent(l, &(struct cfile){ dir, top, DROPIN_DIR, false }, true);
	if (fd < 0)
		return file_fail(l, dir, fd, "cannot open: %m");
	if (fstat(fd, &st) < 0)
		return file_fail(l, dir, -errno, "cannot stat: %m");
	r = check_owner(l, dir, &st);
	if (r < 0)
		return r;
	dh = fdopendir(fd);
	if (!dh)
		return file_fail(l, dir, -errno, "cannot read: %m");
	TAKE_FD(fd);
	while ((de = readdir(dh))) {
		if (!is_dropin_name(de->d_name))
			continue;
		r = dropins_add(l, d, dir, de->d_name, top);
		if (r < 0)
			return r;
	}
	return 0;
}

static int dropin_cmp(const void *a, const void *b)
{
	return strcmp(((const struct dropin *)a)->name, ((const struct dropin *)b)->name);
}

/* Failures other than ENOMEM are logged and recorded in l->error: carry on. */
static int fatal(int r)
{
	return r == -ENOMEM ? r : 0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The name a file being validated is installed as: its own, or --validate-as NAME. */
static const char *overlay_name(const struct loader *l, const char *path)
{
	return l->overlay_as ?: base_name(path);
}

/* A file being validated that is named like the main file takes /etc's main file's place. */
static bool overlay_is_main(const struct loader *l, const char *path)
{
	return streq(overlay_name(l, path), "hostprep.conf");
}

/*
 * The files being validated (config --validate) join the drop-ins under their
 * own names, above every directory: a name that is installed is replaced, as
 * installing the file in /etc/hostprep/hostprep.conf.d/ would.
 */
static int add_overlay_dropins(struct loader *l, struct dropins *d)
{
	for (char *const *f = l->overlay; f && *f; f++) {
		const char *name = overlay_name(l, *f);
		int r;

		if (overlay_is_main(l, *f))
			continue;
		if (!is_dropin_name(name))
			log_warning("%s: a drop-in directory reads only *.conf files; validating "
				    "it as if it were named so",
				    *f);
		r = dropins_add(l, d, *f, name, SYSROOT_ETC);
		if (r < 0)
			return r;
		for (size_t i = 0; i < d->n; i++)
			if (streq(d->v[i].name, name))
				d->v[i].overlay = *f;
	}
	return 0;
}

static int load_dropins(struct loader *l, const bool *refused)
{
	_cleanup_(dropins_done) struct dropins d = {};
	int r;

	for (size_t i = 0; i < ARRAY_SIZE(search_tops); i++) {
		if (refused[i])
			continue;
		r = fatal(list_dropin_dir(l, &d, search_tops[i]));
		if (r < 0)
			return r;
	}
	r = add_overlay_dropins(l, &d);
	if (r < 0)
		return r;
	if (d.n)
		qsort(d.v, d.n, sizeof(*d.v), dropin_cmp);
	for (size_t i = 0; i < d.n; i++) {
		_cleanup_(freep) char *path = NULL, *rel = NULL;

		if (d.v[i].overlay)
			r = (path = strdup(d.v[i].overlay)) ? 0 : -ENOMEM;
		else if (asprintf(&rel, DROPIN_DIR "/%s", d.v[i].name) < 0)
			r = -ENOMEM;
		else
			r = (path = sysroot_path(l->root, d.v[i].top, "%s", rel)) ? 0 : -ENOMEM;
		if (r >= 0)
			r = load_file(l, &(struct cfile){ path, d.v[i].top, rel, false },
				      !d.v[i].overlay);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Whoever can write to <top>/hostprep can swap both the main file and the drop-in dir. */
static int check_top_dirs(struct loader *l, bool *refused)
{
	for (size_t i = 0; i < ARRAY_SIZE(search_tops); i++) {
		_cleanup_(freep) char *dir = sysroot_path(l->root, search_tops[i], "hostprep");

		if (!dir)
			return -ENOMEM;
		refused[i] = check_dir(l, search_tops[i], dir) < 0;
	}
	return 0;
}

static int load_search(struct loader *l)
{
	bool refused[ARRAY_SIZE(search_tops)];
	int r;

	r = check_top_dirs(l, refused);
	if (r < 0)
		return r;
	for (size_t i = 0; i < ARRAY_SIZE(search_tops); i++) {
		bool overlay = search_tops[i] == SYSROOT_ETC && l->overlay_main;
		bool vendor = search_tops[i] == SYSROOT_USR_LIB && l->vendor_main;
		_cleanup_(freep) char *path = NULL;

		if (search_tops[i] == SYSROOT_RUN || refused[i])
			continue; /* the runtime dir has drop-ins only, no main file */
		path = overlay	? strdup(l->overlay_main)
		       : vendor ? strdup(l->vendor_main)
				: sysroot_path(l->root, search_tops[i], MAIN_NAME);
		if (!path)
			return -ENOMEM;
		r = load_file(l,
			      &(struct cfile){ path, search_tops[i],
					       overlay || vendor ? NULL : MAIN_NAME, vendor },
			      !overlay && !vendor);
		if (r < 0)
			return r;
	}
	return load_dropins(l, refused);
}

static int load_explicit(struct loader *l, char *const *files)
{
	for (char *const *f = files; f && *f; f++) {
		int r = load_file(l, &(struct cfile){ .path = *f }, false);

		if (r < 0)
			return r;
	}
	return 0;
}

/* Two files to validate with one name would take the same place: refuse that. */
static int check_overlay(struct loader *l)
{
	for (char *const *f = l->overlay; *f; f++) {
		for (char *const *g = l->overlay; g < f; g++)
			if (streq(overlay_name(l, *f), overlay_name(l, *g)))
				return file_fail(l, *f, -EINVAL,
						 "has the same name as %s; only one of them can "
						 "be installed",
						 *g);
		if (overlay_is_main(l, *f))
			l->overlay_main = *f;
	}
	return 0;
}

static int load_layered(struct loader *l, char *const *explicit_files)
{
	int r = 0;

	if (l->overlay)
		r = fatal(check_overlay(l));
	if (r < 0 || l->error)
		return r;
	if (!explicit_files)
		return load_search(l);
	/* --config replaces the search: the files to validate come after it, in order. */
	r = load_explicit(l, explicit_files);
	if (r >= 0)
		r = load_explicit(l, l->overlay);
	return r;
}

const char *config_file_shown(const struct config *c, const char *file)
{
	return sysroot_strip(&c->display_root, file);
}

void config_done(struct config *c)
{
	for (size_t i = 0; i < n_config_parts; i++)
		config_parts[i]->free(c->parts[i]);
	for (size_t i = 0; i < c->n_lines; i++) {
		free(c->lines[i].section);
		free(c->lines[i].key);
		free(c->lines[i].value);
	}
	free(c->lines);
	strv_free(c->files);
	sysroot_done(&c->display_root);
	*c = (struct config){};
}

static int config_start(struct config *c, const struct sysroot *root, bool search)
{
	*c = (struct config){};
	if (config_items_defaults(host_items, ARRAY_SIZE(host_items), c) < 0)
		return -ENOMEM;
	c->files = calloc(CONFIG_MAX_FILES + 1, sizeof(*c->files));
	if (!c->files)
		return -ENOMEM;
	if (!search)
		return 0;
	c->display_root.dir = strdup(strempty(root->dir));
	return c->display_root.dir ? 0 : -ENOMEM;
}

static int load_with(struct loader *lp, char *const *explicit_files);

int config_load(struct config *c, const struct sysroot *root, char *const *explicit_files,
		unsigned flags)
{
	return config_validate_as(c, root, explicit_files, NULL, NULL, flags);
}

int config_validate(struct config *c, const struct sysroot *root, char *const *explicit_files,
		    char *const *files, unsigned flags)
{
	return config_validate_as(c, root, explicit_files, files, NULL, flags);
}

int config_validate_as(struct config *c, const struct sysroot *root, char *const *explicit_files,
		       char *const *files, const char *as, unsigned flags)
{
	return load_with(
		&(struct loader){
			.c = c, .root = root, .flags = flags, .overlay = files, .overlay_as = as },
		explicit_files);
}

int config_load_vendor(struct config *c, const struct sysroot *root, const char *vendor_file,
		       unsigned flags)
{
	return load_with(
		&(struct loader){
			.c = c, .root = root, .flags = flags, .vendor_main = vendor_file },
		NULL);
}

static int load_with(struct loader *lp, char *const *explicit_files)
{
	struct loader l = *lp;
	struct config *c = l.c;
	const struct sysroot *root = l.root;
	_cleanup_(freep) bool *vendor = calloc(CONFIG_MAX_FILES + 1, sizeof(bool));
	_cleanup_(freep) char *vendor_dir = NULL;
	int r;

	sha256_init(&l.digest);
	r = vendor ? vendor_in_root(root, &vendor_dir) : -ENOMEM;
	l.vendor = vendor;
	l.vendor_in_root = vendor_dir;
	if (r >= 0)
		r = config_start(c, root, !explicit_files);
	if (r >= 0)
		r = load_layered(&l, explicit_files);
	if (r >= 0)
		r = finish_parts(&l);
	if (r >= 0 && !l.error)
		r = build_lines(&l);
	if (r >= 0 && !l.error)
		digest_finish(&l);
	if (r < 0 || l.error) { /* r: ENOMEM, the only failure not logged here */
		config_done(c);
		return r < 0 ? r : l.error;
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>

#include "acs/acs-verify.h"
#include "acs/apply.h"
#include "core/log.h"
#include "core/record.h"

/*
 * ACS Control bits by capability (PCIe 6.0, 7.7.8): bits 0..6 are the
 * controls of Capability bits 0..6; bits 7..12 (I/O Request Blocking, DSP
 * and USP Memory Target Access, Unclaimed Request Redirect) exist only with
 * ACS Enhanced Capability (Capability bit 7); bits 13..15 are reserved.
 */
#define ACS_CAP_ENHANCED       0x0080u
#define ACS_CTRL_ENHANCED_BITS 0x1f80u
#define ACS_CTRL_RESERVED_BITS 0xe000u
#define PCI_CFG_NOT_RESPONDING 0xffffu

enum line_use {
	LINE_ORIGINAL, /* intact, a valid acs line: restored */
	LINE_LEGACY,   /* a valid 0.1.0 acs line without checksum: reported, not restored */
	LINE_INVALID,  /* allowed bytes but not a valid acs line */
	LINE_BAD,      /* failed the record's integrity check */
	LINE_OTHER,    /* intact, another kind: its owner's business */
};

/* The record as the acs module sees it: each line's use, and its fields when it has any. */
struct acs_record {
	struct record rec;
	struct original *o; /* parallel to rec.lines */
	enum line_use *use;
};

static void acs_record_done(struct acs_record *ar)
{
	record_done(&ar->rec);
	free(ar->o);
	free(ar->use);
	*ar = (struct acs_record){};
}

static uint16_t ctrl_allowed(uint16_t cap)
{
	return (cap & ACS_POLICY_BITS) | (cap & ACS_CAP_ENHANCED ? ACS_CTRL_ENHANCED_BITS : 0);
}

/* The 0.1.0 form, to recognise its lines; new lines always carry a path field and a seal. */
int acs_original_format(const struct original *o, bool legacy, char *buf, size_t size)
{
	if (legacy)
		return snprintf(buf, size, "acs %s 0x%03x 0x%04x%s%s", o->addr, o->off, o->ctrl,
				o->devpath[0] ? " " : "", o->devpath);
	return snprintf(buf, size, "acs %s 0x%03x 0x%04x %s", o->addr, o->off, o->ctrl,
			o->devpath[0] ? o->devpath : "-");
}

/* "0x" and exactly n lowercase hex digits. */
static int parse_hex_field(const char *s, size_t n, unsigned *ret)
{
	if (strlen(s) != n + 2 || !strneq(s, "0x", 2))
		return -EBADMSG;
	for (size_t i = 2; i < n + 2; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return -EBADMSG;
	*ret = (unsigned)strtoul(s + 2, NULL, 16);
	return 0;
}

/* Split at single spaces into at most max fields. */
static size_t split_fields(char *s, char **f, size_t max)
{
	size_t n = 0;

	for (char *p = s; n < max; p++) {
		f[n++] = p;
		p = strchr(p, ' ');
		if (!p)
			return n;
		*p = '\0';
	}
	return max + 1; /* more fields than the format has */
}

static int fields_to_original(char **f, size_t n, bool legacy, struct original *o)
{
	uint32_t dom;
	uint8_t b, d, fn;
	unsigned off, ctrl;

	if (n < 4 || n > 5 || (!legacy && n != 5) || !streq(f[0], "acs") ||
	    strlen(f[1]) >= PCI_ADDR_LEN || pci_address_parse(f[1], &dom, &b, &d, &fn) < 0 ||
	    parse_hex_field(f[2], 3, &off) < 0 || parse_hex_field(f[3], 4, &ctrl) < 0)
		return -EBADMSG;
	*o = (struct original){ .off = off, .ctrl = (uint16_t)ctrl };
	strcpy(o->addr, f[1]);
	if (n == 4 || (!legacy && streq(f[4], "-")))
		return 0;
	if (f[4][0] != '/' || strlen(f[4]) >= DEVPATH_MAX)
		return -EBADMSG;
	strcpy(o->devpath, f[4]);
	return 0;
}

/*
 * Exact format: every field fully consumed and fixed-width where it can be,
 * and the line must be what we would write for those values (canonical
 * address, lowercase, single spaces). Then the values must make sense.
 */
int acs_original_parse(const char *body, bool legacy, struct original *o)
{
	_cleanup_(freep) char *copy = strdup(body);
	char again[RECORD_LINE_MAX + 1], *f[5];
	size_t n;

	if (!copy)
		return -ENOMEM;
	n = split_fields(copy, f, ARRAY_SIZE(f));
	if (fields_to_original(f, n, legacy, o) < 0)
		return -EBADMSG;
	acs_original_format(o, legacy, again, sizeof(again));
	if (!streq(again, body))
		return -EBADMSG;
	if (o->off < 0x100 || o->off > 0xff8 || (o->off & 3) || (o->ctrl & ACS_CTRL_RESERVED_BITS))
		return -EBADMSG;
	return 0;
}

static int classify_line(struct acs_record *ar, size_t i)
{
	const struct record_line *l = &ar->rec.lines[i];
	int r;

	if (l->state == RECORD_LINE_BAD) {
		ar->use[i] = LINE_BAD;
		return 0;
	}
	if (l->state == RECORD_LINE_INTACT && !record_line_is(l, "acs")) {
		ar->use[i] = LINE_OTHER;
		return 0;
	}
	r = acs_original_parse(l->body, l->state == RECORD_LINE_UNSIGNED, &ar->o[i]);
	if (r == -ENOMEM)
		return r;
	ar->use[i] = r < 0				? LINE_INVALID
		     : l->state == RECORD_LINE_UNSIGNED ? LINE_LEGACY
							: LINE_ORIGINAL;
	return 0;
}

/* Grow the per-line arrays to the record's lines and classify the new ones. */
static int acs_record_sync(struct acs_record *ar, size_t from)
{
	struct original *o = reallocarray(ar->o, ar->rec.n + 1, sizeof(*o));
	enum line_use *use;

	if (!o)
		return -ENOMEM;
	ar->o = o;
	use = reallocarray(ar->use, ar->rec.n + 1, sizeof(*use));
	if (!use)
		return -ENOMEM;
	ar->use = use;
	for (size_t i = from; i < ar->rec.n; i++) {
		int r = classify_line(ar, i);

		if (r < 0)
			return r;
	}
	return 0;
}

static int acs_record_load(const struct sysroot *root, struct acs_record *ar)
{
	int r = record_load(root, &ar->rec);

	return r < 0 ? r : acs_record_sync(ar, 0);
}

/*
 * The line that holds addr/off's original, or -1. A legacy line counts: it holds the
 * original, and re-recording now could record our own value.
 */
static ssize_t record_find(const struct acs_record *ar, const char *addr, unsigned off)
{
	for (size_t i = 0; i < ar->rec.n; i++)
		if ((ar->use[i] == LINE_ORIGINAL || ar->use[i] == LINE_LEGACY) &&
		    streq(ar->o[i].addr, addr) && ar->o[i].off == off)
			return (ssize_t)i;
	return -1;
}

/* A line that may hold any port's original but cannot be read (damaged, not acs), or -1. */
static ssize_t record_first_unusable(const struct acs_record *ar)
{
	for (size_t i = 0; i < ar->rec.n; i++)
		if (ar->use[i] == LINE_BAD || ar->use[i] == LINE_INVALID)
			return (ssize_t)i;
	return -1;
}

/*
 * The device's sysfs directory as the kernel names it (sys/devices/pci0000:15/
 * 0000:15:01.0 below the root), shown without the root prefix. The address alone is not an
 * identity: after a hotplug another device can sit at the same address.
 */
static void device_path(const struct sysroot *root, const char *addr, char buf[static DEVPATH_MAX])
{
	_cleanup_(freep) char *real = NULL;
	const char *shown =
		sysroot_canonical(root, SYSROOT_SYS, &real, "bus/pci/devices/%s", addr) >= 0 ? real
											     : "";

	buf[0] = '\0';
	if (shown[0] == '/' && strlen(shown) < DEVPATH_MAX && !strchr(shown, ' '))
		strcpy(buf, shown);
}

/*
 * Is the device at o's address now (its path in now, "" when gone) the one its line was
 * taken from? A 0.1.0 line has no path: the address is all it knows. Apply and revert
 * both write only to that device.
 */
static bool recorded_device(const struct apply_env *env, const struct original *o,
			    char now[static DEVPATH_MAX])
{
	device_path(env->root, o->addr, now);
	return !o->devpath[0] || streq(now, o->devpath);
}

/*
 * Re-read what a write is decided on, right before recording and right before writing: the
 * capability header at the offset (still ACS?), the Capability and the Control word. A
 * function that does not answer reads all-ones; its 0xffff is no original and no target.
 */
static int port_check(const struct apply_env *env, const char *addr, unsigned off, uint16_t *cap,
		      uint16_t *ctrl, char *why, size_t size)
{
	uint16_t id;
	int r;

	r = pcib_ext_cap_id_at(env->pci, addr, off, &id);
	if (r >= 0)
		r = pcib_read16(env->pci, addr, off + 4, cap);
	if (r >= 0)
		r = pcib_read16(env->pci, addr, off + 6, ctrl);
	if (r < 0)
		snprintf(why, size, "cannot read the ACS capability at 0x%03x: %s", off,
			 strerror(-r));
	else if (id == PCI_CFG_NOT_RESPONDING || *ctrl == PCI_CFG_NOT_RESPONDING)
		snprintf(why, size, "device not responding (config space reads 0xffff)");
	else if (id != PCI_EXT_CAP_ACS)
		snprintf(why, size, "no ACS capability at 0x%03x any more (id 0x%04x)", off, id);
	else if (*ctrl & ~ctrl_allowed(*cap))
		snprintf(why, size,
			 "ACS Control 0x%04x has bits the capability 0x%04x does not have", *ctrl,
			 *cap);
	else
		return 0;
	return r < 0 ? r : -EBADMSG;
}

static const char *write_hint(const struct apply_env *env, int err)
{
	if (err != -EPERM)
		return "";
	if (env->lockdown && !streq(env->lockdown, "none"))
		return " (kernel lockdown refuses config-space writes)";
	return " (kernel lockdown or missing CAP_SYS_ADMIN?)";
}

/* Write one word and read it back; a result either way. */
static int write_checked(const struct apply_env *env, const char *check, const char *addr,
			 unsigned off, uint16_t old, uint16_t val, struct results *rs)
{
	const char *refused = acs_write_refused_remedy(env->osrelease);
	char expected[16];
	uint16_t back;
	int r;

	snprintf(expected, sizeof(expected), "0x%04x", val);
	r = pcib_write16(env->pci, addr, off, val);
	if (r < 0)
		return results_addf(rs,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = check,
					    .object = addr,
					    .expected = expected,
					    .remedy = refused,
					    .action = ACTION_CONFIG,
				    },
				    "write of 0x%04x at 0x%03x failed: %s%s; still 0x%04x", val,
				    off, strerror(-r), write_hint(env, r), old);
	r = pcib_read16(env->pci, addr, off, &back);
	if (r < 0)
		return results_addf(rs,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = check,
					    .object = addr,
					    .expected = expected,
					    .action = ACTION_CONFIG,
				    },
				    "read-back after writing 0x%04x failed: %s", val, strerror(-r));
	if (back != val)
		return results_addf(rs,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = check,
					    .object = addr,
					    .expected = expected,
					    .remedy = refused,
					    .action = ACTION_CONFIG,
				    },
				    "wrote 0x%04x, read back 0x%04x", val, back);
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = VERDICT_PASS,
				    .check = check,
				    .object = addr,
				    .expected = expected,
			    },
			    "0x%04x -> 0x%04x, read back", old, back);
}

static int record_original(const struct apply_env *env, struct acs_record *ar, const char *addr,
			   unsigned off, uint16_t ctrl)
{
	struct original o = { .off = off, .ctrl = ctrl };
	char body[RECORD_LINE_MAX];
	size_t before = ar->rec.n;
	int r;

	snprintf(o.addr, sizeof(o.addr), "%s", addr);
	device_path(env->root, addr, o.devpath);
	acs_original_format(&o, false, body, sizeof(body));
	r = record_append(&ar->rec, body);
	return r < 0 ? r : acs_record_sync(ar, before);
}

/* Without a readable record the originals are unknown: nothing new is written. */
static int apply_unrecorded(const struct acs_record *ar, int load_err, const char *addr,
			    struct results *rs)
{
	if (ar->rec.too_large)
		return results_addf(rs,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "acs.write",
					    .object = addr,
					    .expected = "original recorded",
					    .remedy = "look at /run/hostprep/acs-originals: "
						      "hostprep never writes that much; restore "
						      "what it names by hand, then remove it",
					    .action = ACTION_INSPECT,
				    },
				    "not written: record too large (%" PRIu64
				    " bytes): not touched",
				    ar->rec.size);
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "acs.write",
				    .object = addr,
				    .expected = "original recorded",
				    .action = ACTION_INSPECT,
			    },
			    "not written: cannot read the originals record: %s",
			    strerror(-load_err));
}

static const char *const cut_remedy =
	"restore by hand the ports hostprep changed whose lines are lost (a reboot resets ACS "
	"to the firmware's values), then remove /run/hostprep/acs-originals";

/* The original could not be recorded: the port is not written. */
static int record_refused(const struct acs_record *ar, const char *addr, int err,
			  struct results *rs)
{
	if (err == -EUCLEAN)
		return results_addf(rs,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "acs.write",
					    .object = addr,
					    .expected = "original recorded",
					    .remedy = cut_remedy,
					    .action = ACTION_INSPECT,
				    },
				    "not written: the originals record is cut (%s): a lost line "
				    "may hold this port's original",
				    ar->rec.cut_why);
	if (err == -EFBIG)
		return results_addf(rs,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "acs.write",
					    .object = addr,
					    .expected = "original recorded",
					    .remedy = "look at /run/hostprep/acs-originals: "
						      "hostprep never needs that many lines",
					    .action = ACTION_INSPECT,
				    },
				    "not written: record full: its line would take the record past "
				    "%u bytes, more than revert reads",
				    RECORD_MAX_SIZE);
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "acs.write",
				    .object = addr,
				    .expected = "original recorded",
				    .action = ACTION_INSPECT,
			    },
			    "not written: cannot record the original: %s", strerror(-err));
}

static const char *const gone_remedy =
	"the line stays in /run/hostprep/acs-originals: run hostprep revert again when the "
	"device is back, or delete the line once the device is decommissioned (and line 1, "
	"the header that counts the lines)";

/*
 * A damaged line may be this port's original: recording the value read now could record
 * hostprep's own, and revert would then restore that. Not written, as with a cut record.
 */
static int record_damaged(const struct acs_record *ar, size_t i, const char *addr,
			  struct results *rs)
{
	const struct record_line *l = &ar->rec.lines[i];
	_cleanup_(freep) char *text = record_line_escape(l, 160);

	if (!text)
		return -ENOMEM;
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "acs.write",
				    .object = addr,
				    .expected = "original recorded",
				    .remedy = "restore by hand the port that line names (a reboot "
					      "resets ACS to the firmware's values), then delete "
					      "the line (and line 1, the header that counts the "
					      "lines) from /run/hostprep/acs-originals",
				    .action = ACTION_INSPECT,
			    },
			    "not written: record line %u %s and may hold this port's original: "
			    "'%s'",
			    l->no, ar->use[i] == LINE_BAD ? l->why : "is not a valid acs line",
			    text);
}

/*
 * The recorded original is of the device that sat at this address when it was recorded;
 * another one there now (hotplug, a renumbered bus) has none recorded, and revert would
 * refuse the line: not written. 1: refused (a result added); 0: the line is this device's.
 */
static int recorded_elsewhere(const struct apply_env *env, const struct original *o,
			      struct results *rs)
{
	char now[DEVPATH_MAX];
	int r;

	if (recorded_device(env, o, now))
		return 0;
	r = results_addf(rs,
			 &(const struct result_spec){
				 .verdict = VERDICT_FAIL,
				 .check = "acs.write",
				 .object = o->addr,
				 .expected = "original recorded",
				 .remedy = gone_remedy,
				 .action = ACTION_INSPECT,
			 },
			 "not written: the record holds the original of another device at "
			 "this address (%s), not of %s",
			 o->devpath, now[0] ? now : "the device there now");
	return r < 0 ? r : 1;
}

/* The port's original in the record before its write: 0 recorded, 1 refused (a result). */
static int record_port(const struct apply_env *env, struct acs_record *ar, const char *addr,
		       unsigned off, uint16_t cur, struct results *rs)
{
	ssize_t i = record_find(ar, addr, off), bad;
	int r;

	if (i >= 0)
		return recorded_elsewhere(env, &ar->o[i], rs);
	bad = record_first_unusable(ar);
	if (bad >= 0)
		r = record_damaged(ar, (size_t)bad, addr, rs);
	else if (ar->rec.whole == RECORD_CUT)
		r = record_refused(ar, addr, -EUCLEAN, rs);
	else {
		r = record_original(env, ar, addr, off, cur);
		if (r >= 0 || r == -ENOMEM)
			return r;
		r = record_refused(ar, addr, r, rs);
	}
	return r < 0 ? r : 1;
}

static int apply_one(const struct apply_env *env, const struct acs_action *a, struct acs_record *ar,
		     int load_err, struct results *rs)
{
	uint16_t cap, cur, cap2, cur2, want;
	char why[128];
	int r;

	/* Re-read: the plan may be seconds old and the kernel may have moved. */
	if (port_check(env, a->addr, a->off, &cap, &cur, why, sizeof(why)) < 0)
		return results_addf(rs,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "acs.write",
					    .object = a->addr,
					    .expected = "ACS readable",
					    .action = ACTION_INSPECT,
				    },
				    "not written, nothing recorded: %s", why);
	want = acs_ctrl_target(cur, cap, &a->target->mask);
	if (want == cur)
		return 0;
	if (load_err < 0 || ar->rec.too_large)
		return apply_unrecorded(ar, load_err, a->addr, rs);
	r = record_port(env, ar, a->addr, a->off, cur, rs);
	if (r != 0)
		return r < 0 ? r : 0;
	if (port_check(env, a->addr, a->off, &cap2, &cur2, why, sizeof(why)) < 0)
		return results_addf(rs,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "acs.write",
					    .object = a->addr,
					    .expected = "ACS readable",
					    .action = ACTION_INSPECT,
				    },
				    "not written: %s", why);
	if (cur2 != cur || cap2 != cap)
		return results_addf(rs,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "acs.write",
					    .object = a->addr,
					    .expected = "ACS unchanged",
					    .action = ACTION_INSPECT,
				    },
				    "not written: ACS Control changed from 0x%04x to 0x%04x while "
				    "the original was recorded",
				    cur, cur2);
	return write_checked(env, "acs.write", a->addr, a->off + 6, cur, want, rs);
}

int apply_acs(const struct apply_env *env, const struct plan *p, struct results *rs)
{
	_cleanup_(acs_record_done) struct acs_record ar = {};
	int load_err, r;

	if (p->n_actions == 0)
		return 0;
	load_err = acs_record_load(env->root, &ar);
	if (load_err == -ENOMEM)
		return load_err;
	if (load_err < 0)
		log_error_errno(load_err, "Failed to read the originals record: %m");
	for (size_t i = 0; i < p->n_actions; i++) {
		r = apply_one(env, &p->actions[i], &ar, load_err, rs);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Only write to the device we wrote: the address may now be another one (hotplug). */
static int check_identity(const struct apply_env *env, const struct original *o,
			  const char *expected, struct results *rs)
{
	char now[DEVPATH_MAX];
	bool same = recorded_device(env, o, now);

	if (!now[0])
		return results_addf(rs,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "acs.revert",
					    .object = o->addr,
					    .expected = expected,
					    .remedy = gone_remedy,
					    .action = ACTION_INSPECT,
				    },
				    "not restored: device %s is gone (%s)", o->addr,
				    o->devpath[0] ? o->devpath : "no such address");
	if (!same)
		return results_addf(rs,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "acs.revert",
					    .object = o->addr,
					    .expected = expected,
					    .remedy = gone_remedy,
					    .action = ACTION_INSPECT,
				    },
				    "not restored: recorded device %s, now %s", o->devpath, now);
	return 1;
}

static int revert_one(const struct apply_env *env, const struct original *o, struct results *rs)
{
	char expected[16], why[128];
	uint16_t cap, cur;
	int r;

	snprintf(expected, sizeof(expected), "0x%04x", o->ctrl);
	r = check_identity(env, o, expected, rs);
	if (r <= 0)
		return r;
	if (port_check(env, o->addr, o->off, &cap, &cur, why, sizeof(why)) < 0)
		return results_addf(rs,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "acs.revert",
					    .object = o->addr,
					    .expected = expected,
					    .action = ACTION_INSPECT,
				    },
				    "not restored: %s", why);
	if (o->ctrl & ~ctrl_allowed(cap))
		return results_addf(rs,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "acs.revert",
					    .object = o->addr,
					    .expected = expected,
					    .action = ACTION_INSPECT,
				    },
				    "not restored: the recorded 0x%04x has bits the capability "
				    "0x%04x does not have",
				    o->ctrl, cap);
	if (cur == o->ctrl)
		return results_addf(rs,
				    &(const struct result_spec){
					    .verdict = VERDICT_PASS,
					    .check = "acs.revert",
					    .object = o->addr,
					    .expected = expected,
				    },
				    "0x%04x already", cur);
	return write_checked(env, "acs.revert", o->addr, o->off + 6, cur, o->ctrl, rs);
}

/* A 0.1.0 line has no checksum: say exactly what an operator may run once they checked it. */
static int report_legacy(const struct original *o, unsigned no, struct results *rs)
{
	_cleanup_(freep) char *remedy = NULL;
	char expected[16];

	snprintf(expected, sizeof(expected), "0x%04x", o->ctrl);
	if (asprintf(&remedy,
		     "check that 0x%04x is the value to restore, then run: setpci -s %s "
		     "ECAP_ACS+0x6.w=%04x; then delete line %u of /run/hostprep/acs-originals "
		     "(and line 1 if it is the header that counts the lines)",
		     o->ctrl, o->addr, o->ctrl, no) < 0)
		return -ENOMEM;
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "acs.revert",
				    .object = o->addr,
				    .expected = expected,
				    .remedy = remedy,
				    .action = ACTION_INSPECT,
			    },
			    "not restored: record line %u has no checksum (written by hostprep "
			    "0.1.0 or by hand); kept in the record",
			    no);
}

static int report_unusable(const struct acs_record *ar, size_t i, struct results *rs)
{
	const struct record_line *l = &ar->rec.lines[i];
	_cleanup_(freep) char *text = record_line_escape(l, 160);

	if (!text)
		return -ENOMEM;
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "acs.revert",
				    .object = "record",
				    .expected = "an intact record line",
				    .remedy = "restore that port by hand (setpci) once you know "
					      "its original, then delete the line (and line 1, the "
					      "header that counts the lines)",
				    .action = ACTION_INSPECT,
			    },
			    "line %u %s; kept byte-exact, never restored: '%s'", l->no,
			    ar->use[i] == LINE_BAD ? l->why : "is not a valid acs line", text);
}

static bool same_port(const struct original *a, const struct original *b)
{
	return streq(a->addr, b->addr) && a->off == b->off;
}

/* The first intact line for line i's port (i itself when it is the first). */
static size_t first_for_port(const struct acs_record *ar, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (ar->use[j] == LINE_ORIGINAL && same_port(&ar->o[j], &ar->o[i]))
			return j;
	return i;
}

/* Another intact line for the port of line first with another original, or first. */
static size_t other_original(const struct acs_record *ar, size_t first)
{
	for (size_t k = first + 1; k < ar->rec.n; k++)
		if (ar->use[k] == LINE_ORIGINAL && same_port(&ar->o[k], &ar->o[first]) &&
		    ar->o[k].ctrl != ar->o[first].ctrl)
			return k;
	return first;
}

/* Two intact lines, two originals for one port: which one is right is unknown. */
static int report_ambiguous(const struct acs_record *ar, size_t a, size_t b, struct results *rs)
{
	const struct original *o = &ar->o[a];
	_cleanup_(freep) char *remedy = NULL;

	if (asprintf(&remedy,
		     "find out which of 0x%04x and 0x%04x is %s's original and set it by hand "
		     "(setpci -s %s ECAP_ACS+0x6.w=VALUE)",
		     o->ctrl, ar->o[b].ctrl, o->addr, o->addr) < 0)
		return -ENOMEM;
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "acs.revert",
				    .object = o->addr,
				    .expected = "one original",
				    .remedy = remedy,
				    .action = ACTION_INSPECT,
			    },
			    "not restored: record lines %u and %u hold different originals "
			    "(0x%04x, 0x%04x) for 0x%03x; both kept in the record",
			    ar->rec.lines[a].no, ar->rec.lines[b].no, o->ctrl, ar->o[b].ctrl,
			    o->off);
}

/*
 * An intact line whose port has another intact line: the first reports an ambiguity (no
 * write), a later one with the same original shares the first's outcome. 1: handled.
 */
static int revert_repeated(const struct acs_record *ar, size_t i, bool *drop, struct results *rs)
{
	size_t first = first_for_port(ar, i), other = other_original(ar, first);
	int r;

	if (other != first) {
		if (i != first)
			return 1;
		r = report_ambiguous(ar, first, other, rs);
		return r < 0 ? r : 1;
	}
	if (first == i)
		return 0;
	drop[i] = drop[first]; /* the same original again: restored with the first */
	return 1;
}

static int revert_line(const struct apply_env *env, const struct acs_record *ar, size_t i,
		       bool *drop, struct results *rs)
{
	size_t before = rs->n;
	int r;

	switch (ar->use[i]) {
	case LINE_ORIGINAL:
		r = revert_repeated(ar, i, drop, rs);
		if (r != 0)
			return r < 0 ? r : 0;
		r = revert_one(env, &ar->o[i], rs);
		drop[i] = r >= 0 && rs->n > before && rs->items[rs->n - 1].verdict == VERDICT_PASS;
		return r;
	case LINE_LEGACY:
		return report_legacy(&ar->o[i], ar->rec.lines[i].no, rs);
	case LINE_INVALID:
	case LINE_BAD:
		return report_unusable(ar, i, rs);
	case LINE_OTHER:
	default:
		return 0;
	}
}

static size_t acs_lines(const struct acs_record *ar)
{
	size_t n = 0;

	for (size_t i = 0; i < ar->rec.n; i++)
		n += ar->use[i] != LINE_OTHER;
	return n;
}

static int revert_record_unreadable(const struct acs_record *ar, int err, struct results *rs)
{
	if (ar->rec.too_large)
		return results_addf(rs,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "acs.revert",
					    .object = "record",
					    .expected = "originals restored",
					    .remedy = "look at /run/hostprep/acs-originals: "
						      "hostprep never writes that much; restore "
						      "what it names by hand, then remove it",
					    .action = ACTION_INSPECT,
				    },
				    "record too large (%" PRIu64 " bytes): not touched",
				    ar->rec.size);
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "acs.revert",
				    .object = "record",
				    .expected = "originals restored",
				    .action = ACTION_INSPECT,
			    },
			    "cannot read the originals record: %s; nothing restored",
			    strerror(-err));
}

/* Lines are lost: what they held is unknown, and the file stays as it is. */
static int report_cut(const struct acs_record *ar, struct results *rs)
{
	return results_addf(rs,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "acs.revert",
				    .object = "record",
				    .expected = "a whole record",
				    .remedy = cut_remedy,
				    .action = ACTION_INSPECT,
			    },
			    "the record is cut (%s): the originals of lost lines are unknown; "
			    "intact lines restored, the file kept as it is",
			    ar->rec.cut_why);
}

int revert_acs(const struct apply_env *env, struct results *rs)
{
	_cleanup_(acs_record_done) struct acs_record ar = {};
	_cleanup_(freep) bool *drop = NULL;
	int r;

	r = acs_record_load(env->root, &ar);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || ar.rec.too_large)
		return revert_record_unreadable(&ar, r, rs);
	r = record_remove_if_empty(&ar.rec);
	if (r < 0)
		log_warning_errno(r, "Failed to remove the empty %s, ignoring: %m", ar.rec.path);
	if (acs_lines(&ar) == 0 && ar.rec.whole != RECORD_CUT)
		return results_add(rs, &(const struct result_spec){
					       .verdict = VERDICT_SKIP,
					       .check = "acs.revert",
					       .object = "record",
					       .expected = "originals restored",
					       .actual = "nothing recorded: hostprep has not "
							 "changed ACS on this host",
					       .action = ACTION_NONE,
				       });
	drop = calloc(ar.rec.n + 1, sizeof(bool));
	if (!drop)
		return -ENOMEM;
	for (size_t i = 0; i < ar.rec.n; i++) {
		r = revert_line(env, &ar, i, drop, rs);
		if (r < 0)
			return r;
	}
	if (ar.rec.whole == RECORD_CUT)
		return report_cut(&ar, rs);
	r = record_rewrite(&ar.rec, drop);
	if (r < 0)
		return log_error_errno(r, "Failed to update the originals record: %m");
	return 0;
}

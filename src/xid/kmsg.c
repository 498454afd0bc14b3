// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel log's records and the lines the checks look for (xid.h).
 *
 * A record is what /dev/kmsg gives per read(2) (Documentation/ABI/testing/dev-kmsg):
 * "PRIO,SEQ,USEC,FLAGS[,...];MESSAGE\n", then dictionary lines that begin with a space.
 * The signatures, as the drivers print them:
 *   NVRM: Xid (PCI:0000:91:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen ...
 *   nvidia-nvswitch3: SXid (PCI:0000:c6:00.0): 20034, Fatal, Link 30 LTSSM Fault Up
 *   mlx5_core 0000:3b:00.0: 63.008 Gb/s available PCIe bandwidth, limited by 8.0 GT/s
 *       PCIe x8 link at 0000:3a:00.0 (capable of ...)   (pcie_print_link_status())
 *   pcieport 0000:00:01.0: AER: Uncorrected (Fatal) error received: 0000:01:00.0
 *       (Linux 6.x: "Uncorrectable (Fatal) error message received from 0000:01:00.0")
 *   pcieport 0000:00:03.1: DPC: containment event, status:0x1f01 source:0x0000
 *   nvidia_peermem: Unknown symbol ib_register_peer_memory_client (err -2)
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xid/xid.h"

/* Decimal digits at *p up to a non-digit; -EINVAL when there are none or too many. */
static int parse_u64(const char **p, uint64_t *ret)
{
	const char *s = *p;
	uint64_t v = 0;

	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (s == *p)
		return -EINVAL;
	*p = s;
	*ret = v;
	return 0;
}

int kmsg_parse_record(const char *line, struct kmsg_record *ret)
{
	const char *p = line, *semi;
	uint64_t prio;

	if (parse_u64(&p, &prio) < 0 || prio > 0xffffffU || *p++ != ',' ||
	    parse_u64(&p, &ret->seq) < 0 || *p++ != ',' || parse_u64(&p, &ret->usec) < 0 ||
	    *p++ != ',')
		return -EINVAL;
	semi = strchr(p, ';');
	/* FLAGS: one character ('-', 'c', '+'), then what later kernels may add */
	if (!semi || semi == p || memchr(p, ' ', (size_t)(semi - p)))
		return -EINVAL;
	ret->prio = (unsigned)prio;
	ret->msg = semi + 1;
	return 0;
}

static bool hex_run(const char *s, size_t min, size_t max, size_t *len)
{
	size_t n = 0;

	while (n <= max && isxdigit((unsigned char)s[n]))
		n++;
	*len = n;
	return n >= min && n <= max;
}

/*
 * "DDDD:BB:DD[.F]" (hex; the domain 4 to 8 digits) at s, of exactly len bytes; out gets it
 * in lower case with ".0" when the function is left out (an Xid names the slot).
 */
static bool pci_addr(const char *s, size_t len, char out[XID_OBJECT_MAX])
{
	size_t d, b, v, f = 0;
	const char *p = s;

	if (!hex_run(p, 4, 8, &d) || p[d] != ':' || !hex_run(p + d + 1, 2, 2, &b) ||
	    p[d + 3] != ':' || !hex_run(p + d + 4, 2, 2, &v))
		return false;
	p += d + 6;
	if (*p == '.' && !hex_run(p + 1, 1, 1, &f))
		return false;
	if ((size_t)(p - s) + (f ? 2 : 0) != len || d + 8 >= XID_OBJECT_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		out[i] = (char)tolower((unsigned char)s[i]);
	snprintf(out + len, XID_OBJECT_MAX - len, "%s", f ? "" : ".0");
	return true;
}

/* The device of a dev_printk() line: "DRIVER ADDR: ..." */
static bool printk_device(const char *msg, char out[XID_OBJECT_MAX])
{
	const char *sp = strchr(msg, ' '), *colon;

	if (!sp)
		return false;
	colon = strstr(sp + 1, ": ");
	return colon && pci_addr(sp + 1, (size_t)(colon - sp - 1), out);
}

/* "(PCI:ADDR): CODE," after the marker: the address and the code; p past the comma. */
static bool nv_header(const char **p, char out[XID_OBJECT_MAX], unsigned *code)
{
	const char *s = *p, *close;
	uint64_t v;

	if (strneq(s, "PCI:", 4))
		s += 4;
	close = strchr(s, ')');
	if (!close || !pci_addr(s, (size_t)(close - s), out) || !strneq(close, "): ", 3))
		return false;
	s = close + 3;
	if (parse_u64(&s, &v) < 0 || v == 0 || v > XID_CODE_MAX || (*s != ',' && *s))
		return false;
	*code = (unsigned)v;
	*p = *s ? s + 1 : s;
	return true;
}

static bool match_xid(const char *msg, struct kmsg_match *m)
{
	const char *p = strstr(msg, "NVRM: Xid (");
	const struct xid_code *x;

	if (!p)
		return false;
	p += strlen("NVRM: Xid (");
	if (!nv_header(&p, m->object, &m->code))
		return false;
	m->kind = KMSG_XID;
	x = xid_lookup(false, m->code);
	m->cls = !x ? XID_CLASS_UNKNOWN : m->code == 154 ? xid_154_class(p) : x->cls;
	return true;
}

static bool match_sxid(const char *msg, struct kmsg_match *m)
{
	const char *p = strstr(msg, "SXid (");

	if (!p)
		return false;
	p += strlen("SXid (");
	if (!nv_header(&p, m->object, &m->code))
		return false;
	p += strspn(p, " ");
	m->kind = KMSG_SXID;
	/* Fabric Manager User Guide: a fatal SXid needs the NVSwitches and GPUs reset */
	if (strncasecmp(p, "Non-fatal", 9) == 0)
		m->cls = XID_CLASS_NONE;
	else if (strncasecmp(p, "Fatal", 5) == 0)
		m->cls = XID_CLASS_RESET_GPU;
	else
		m->cls = XID_CLASS_UNKNOWN;
	return true;
}

/* The AER error messages of aer_isr_one_error() (not the per-device detail lines). */
static bool match_aer(const char *msg, struct kmsg_match *m)
{
	static const char *const received[] = { "error received: ",
						"error message received from " };
	const char *p = strstr(msg, "AER: "), *src = NULL;

	for (size_t i = 0; p && !src && i < ARRAY_SIZE(received); i++)
		if ((src = strstr(p, received[i])))
			src += strlen(received[i]);
	if (!src)
		return false;
	if (strstr(p, "(Non-Fatal)"))
		m->kind = KMSG_AER_NONFATAL;
	else if (strstr(p, "(Fatal)"))
		m->kind = KMSG_AER_FATAL;
	else
		m->kind = KMSG_AER_COR;
	/* the source the root port names, else the port itself */
	if (!pci_addr(src, strspn(src, "0123456789abcdefABCDEF:."), m->object) &&
	    !printk_device(msg, m->object))
		snprintf(m->object, XID_OBJECT_MAX, "unknown device");
	return true;
}

static bool match_device_line(const char *msg, struct kmsg_match *m)
{
	if (strstr(msg, "available PCIe bandwidth, limited by") ||
	    strstr(msg, "PCIe bandwidth limited"))
		m->kind = KMSG_LINK_LIMITED;
	else if (strstr(msg, "DPC: containment event"))
		m->kind = KMSG_DPC;
	else
		return false;
	if (!printk_device(msg, m->object))
		snprintf(m->object, XID_OBJECT_MAX, "unknown device");
	return true;
}

/* "MODULE: Unknown symbol SYM (err -2)": load_module()'s complaint, named by the module. */
static bool match_unknown_symbol(const char *msg, struct kmsg_match *m)
{
	const char *p = strstr(msg, ": Unknown symbol ");
	size_t len = p ? (size_t)(p - msg) : 0;

	if (!p || len == 0 || len >= XID_OBJECT_MAX || memchr(msg, ' ', len))
		return false;
	m->kind = KMSG_UNKNOWN_SYMBOL;
	snprintf(m->object, XID_OBJECT_MAX, "%.*s", (int)len, msg);
	return true;
}

bool kmsg_match(const char *msg, struct kmsg_match *ret)
{
	*ret = (struct kmsg_match){};
	return match_xid(msg, ret) || match_sxid(msg, ret) || match_aer(msg, ret) ||
	       match_device_line(msg, ret) || match_unknown_symbol(msg, ret);
}

/* --- the scan --------------------------------------------------------------------------- */

static struct xid_finding *finding_of(struct xid_scan *s, const struct kmsg_match *m)
{
	struct xid_finding *grown;

	for (size_t i = 0; i < s->n; i++)
		if (s->f[i].m.kind == m->kind && s->f[i].m.code == m->code &&
		    streq(s->f[i].m.object, m->object))
			return &s->f[i];
	if (s->n >= XID_FINDINGS_MAX)
		return NULL;
	grown = reallocarray(s->f, s->n + 1, sizeof(*grown));
	if (!grown)
		return NULL;
	s->f = grown;
	s->f[s->n] = (struct xid_finding){ .m = *m };
	return &s->f[s->n++];
}

/*
 * The class of a finding after one more line of it. An Xid's is its code's, but for Xid
 * 154, whose last change is the action that holds. The NVSwitch driver prints an SXid as
 * several lines, only the first stating the severity ("20034, Fatal, Link 32 ..." then
 * "20034, Severity 5 Engine instance 32 ..." and "20034, Data {...}"): a line without one
 * keeps what was stated, and a fatal line wins.
 */
static enum xid_class merge_class(const struct kmsg_match *m, enum xid_class was, bool first)
{
	if (first || m->kind != KMSG_SXID)
		return m->cls;
	if (m->cls == XID_CLASS_UNKNOWN)
		return was;
	return was == XID_CLASS_UNKNOWN || m->cls == XID_CLASS_RESET_GPU ? m->cls : was;
}

static int account(struct xid_scan *s, const struct kmsg_record *rec, const struct kmsg_match *m)
{
	struct xid_finding *f = finding_of(s, m);

	if (!f) {
		if (s->n < XID_FINDINGS_MAX)
			return -ENOMEM;
		s->dropped++;
		return 0;
	}
	if (f->count++ == 0) {
		f->first_usec = rec->usec;
		f->line = strndup(rec->msg, XID_LINE_MAX);
		if (!f->line)
			return -ENOMEM;
	}
	f->last_usec = rec->usec;
	f->m.cls = merge_class(m, f->m.cls, f->count == 1);
	return 0;
}

static int malformed(struct xid_scan *s)
{
	s->malformed++;
	if (s->record) /* kept malformed, its text left out */
		strbuf_printf(&s->judged, "?\n");
	return 0;
}

int xid_scan_line(struct xid_scan *s, const char *line)
{
	struct kmsg_record rec;
	struct kmsg_match m;
	bool hit;

	if (kmsg_parse_record(line, &rec) < 0)
		return malformed(s);
	if (s->records++ == 0)
		s->first_seq = rec.seq;
	/*
	 * prio is facility << 3 | level: the kernel's own records are facility 0 (LOG_KERN);
	 * a line a program wrote to /dev/kmsg has its own (LOG_USER by default): no driver
	 * said it, whatever its text.
	 */
	hit = rec.prio >> 3 == 0 && kmsg_match(rec.msg, &m);
	/* a snapshot keeps the record, its text only where it was judged */
	if (s->record)
		strbuf_printf(&s->judged, "%.*s%s\n", (int)(rec.msg - line), line,
			      hit ? rec.msg : "");
	return hit ? account(s, &rec, &m) : 0;
}

#define LINE_BUF 16384 /* a record's text is at most 8 KiB (CONSOLE_EXT_LOG_MAX) */

/*
 * One line of f into buf (without its newline, NUL-terminated): its length, or -1 at the
 * end. A line that does not fit, or holds a NUL (the kernel escapes every unprintable
 * byte), is read to its end and *bad set: it is no record.
 */
static ssize_t read_line(FILE *f, char *buf, size_t size, bool *bad)
{
	size_t len = 0;
	int c;

	*bad = false;
	while ((c = getc(f)) != EOF && c != '\n') {
		if (c == '\0' || len + 1 >= size)
			*bad = true;
		else
			buf[len++] = (char)c;
	}
	buf[len] = '\0';
	return c == EOF && len == 0 && !*bad ? -1 : (ssize_t)len;
}

int xid_scan_file(struct xid_scan *s, FILE *f)
{
	char buf[LINE_BUF];
	bool bad;
	int r;

	while (read_line(f, buf, sizeof(buf), &bad) >= 0) {
		if (buf[0] == ' ')
			continue; /* a dictionary line of the record before */
		if (s->records + s->malformed >= s->max_records) {
			s->capped = true;
			return 0;
		}
		r = bad ? malformed(s) : xid_scan_line(s, buf);
		if (r < 0)
			return r;
	}
	return ferror(f) ? -EIO : 0;
}

void xid_scan_done(struct xid_scan *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->f[i].line);
	free(s->f);
	s->f = NULL;
	s->n = 0;
	strbuf_done(&s->judged);
}

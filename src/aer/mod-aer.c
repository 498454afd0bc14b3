// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The AER module ([AER]): the PCIe error counters since boot of the GPUs, the NICs and
 * every port on their paths up to the root port, against thresholds (aer.h). Check only:
 * it reads at verify time. A function without the counter files is counted, and said
 * once for all of them (AER not owned by the kernel there), not per function.
 */
#include <fcntl.h>

#include "aer/aer.h"
#include "core/fileio.h"
#include "core/log.h"
#include "run/run.h"
#include "core/strbuf.h"
#include "topo/topo.h"

#define CHECK_AER      "pcie.aer"
#define AER_FILE_MAX   4096
#define PCIE_ROOT_PORT 4

static const char remedy_exceeded[] =
	"dmesg | grep -i -e AER -e %s (the error type and the agent); journalctl -k -b -1 for "
	"the boot before; rising correctable counts mean a marginal link (reseat, riser, "
	"retimer); fatal or non-fatal errors: the card, its slot or its firmware";
static const char remedy_absent[] =
	"dmesg | grep -i -e AER -e 'firmware first' -e _OSC (AER owned by the platform "
	"firmware, pcie_ports=compat, or a kernel without CONFIG_PCIEAER); the BMC's event log "
	"then has the errors";

static const char remedy_partial[] =
	"ls the function's sysfs directory: the kernel shows these files together (a file "
	"removed or hidden, or not the kernel's sysfs); dmesg | grep -i AER";

/* What one function's files said. */
struct aer_fn {
	int err; /* 0, -ENOENT (no counters), or why they could not be read */
	const char *err_what;
	enum aer_set set;
	int root_port_kind;	      /* root_port_kind(): 1, 0, -1 */
	unsigned dev_found, rp_found; /* a bit per enum aer_kind: the file is there */
	struct aer_counts dev[_AER_KIND_MAX];
	bool root_port;			  /* the totals were read */
	uint64_t received[_AER_KIND_MAX]; /* root port: aer_rootport_total_err_* */
};

static const char *const rootport_files[_AER_KIND_MAX] = {
	[AER_COR] = "aer_rootport_total_err_cor",
	[AER_NONFATAL] = "aer_rootport_total_err_nonfatal",
	[AER_FATAL] = "aer_rootport_total_err_fatal",
};

static int read_file(const struct sysroot *root, int dfd, const char *name, char **ret)
{
	size_t size;

	return read_full_file_at(root, dfd, name, AER_FILE_MAX, ret, &size);
}

static const char *const dev_files[_AER_KIND_MAX] = {
	[AER_COR] = "aer_dev_correctable",
	[AER_NONFATAL] = "aer_dev_nonfatal",
	[AER_FATAL] = "aer_dev_fatal",
};

static int read_dev(const struct sysroot *root, int dfd, enum aer_kind k, struct aer_counts *ret)
{
	_cleanup_(freep) char *text = NULL;
	int r = read_file(root, dfd, dev_files[k], &text);

	return r < 0 ? r : aer_parse_dev(text, k, ret);
}

static int read_received(const struct sysroot *root, int dfd, enum aer_kind k, uint64_t *ret)
{
	_cleanup_(freep) char *text = NULL;
	int r = read_file(root, dfd, rootport_files[k], &text);

	return r < 0 ? r : aer_parse_total(text, ret);
}

/* A root port: on a root bus, a bridge; 1 by its PCIe type, -1 when the type is unread. */
static int root_port_kind(const struct pci_dev_info *d)
{
	if (d->parent >= 0 || d->id.class_code >> 8 != 0x0604)
		return 0;
	if (d->pcie_type == PCIE_ROOT_PORT)
		return 1;
	/* caps read in full without that type: another bridge, not a root port */
	return d->pcie_type < 0 && !(d->caps_loaded && d->cfg == PCI_CFG_FULL) ? -1 : 0;
}

/* Each file of a set; *found gets a bit for each one there (read or not). */
static void read_set(const struct sysroot *root, int dfd, bool totals, struct aer_fn *f)
{
	for (int k = 0; k < _AER_KIND_MAX; k++) {
		int r = totals ? read_received(root, dfd, k, &f->received[k])
			       : read_dev(root, dfd, k, &f->dev[k]);

		if (r == -ENOENT)
			continue;
		*(totals ? &f->rp_found : &f->dev_found) |= 1u << k;
		if (r < 0 && !f->err)
			f->err = r, f->err_what = totals ? rootport_files[k] : dev_files[k];
	}
}

static void fn_read(const struct run *run, const struct pci_inventory *inv, size_t i,
		    struct aer_fn *f)
{
	_cleanup_(pci_dir_release) struct pci_dir dir;
	int dfd;

	*f = (struct aer_fn){ .root_port_kind = root_port_kind(&inv->devs[i]) };
	dfd = pci_dev_dir(run->root, inv, i, &dir);
	if (dfd < 0) {
		f->err = dfd == -ENOENT ? -ENODEV : dfd, f->err_what = "the device directory";
		return;
	}
	read_set(run->root, dfd, false, f);
	if (f->root_port_kind)
		read_set(run->root, dfd, true, f);
	f->set = aer_files_judge(f->dev_found, f->rp_found, f->root_port_kind);
	f->root_port = f->set == AER_SET_ROOT_PORT;
	if (f->set == AER_SET_NONE)
		f->err = -ENOENT;
}

static bool fn_exceeds(const struct aer_config *ac, const struct aer_fn *f)
{
	for (int k = 0; k < _AER_KIND_MAX; k++)
		if (aer_exceeds(f->dev[k].total, ac->limit[k]) ||
		    (f->root_port && aer_exceeds(f->received[k], ac->limit[k])))
			return true;
	return false;
}

static void limits_text(const struct aer_config *ac, char *buf, size_t size)
{
	size_t o = 0;

	for (int k = _AER_KIND_MAX - 1; k >= 0; k--) {
		if (ac->limit[k] == AER_OFF)
			continue;
		o += (size_t)snprintf(buf + o, size - o, "%s%s <= %" PRIu64, o ? ", " : "",
				      aer_kind_to_string(k), ac->limit[k]);
		if (o >= size)
			return;
	}
	if (ac->limit[AER_COR] == AER_OFF && o < size)
		snprintf(buf + o, size - o, "%scorrectable reported", o ? "; " : "");
}

static int counts_text(const struct aer_fn *f, char **ret)
{
	_cleanup_(strbuf_done) struct strbuf b = {};

	for (int k = _AER_KIND_MAX - 1; k >= 0; k--) {
		strbuf_printf(&b, "%s%s %" PRIu64, k == _AER_KIND_MAX - 1 ? "" : ", ",
			      aer_kind_to_string(k), f->dev[k].total);
		if (f->dev[k].detail[0])
			strbuf_printf(&b, " (%s)", f->dev[k].detail);
	}
	if (f->root_port)
		strbuf_printf(&b,
			      "; received from below: fatal %" PRIu64 ", nonfatal %" PRIu64
			      ", correctable %" PRIu64,
			      f->received[AER_FATAL], f->received[AER_NONFATAL],
			      f->received[AER_COR]);
	return strbuf_take(&b, ret);
}

/* "a, b": the files of the set that are there (there) or missing; totals: both sets. */
static void names_text(struct strbuf *b, const struct aer_fn *f, bool totals, bool there)
{
	const char *sep = "";

	for (int set = 0; set < (totals ? 2 : 1); set++)
		for (int k = 0; k < _AER_KIND_MAX; k++) {
			unsigned found = set ? f->rp_found : f->dev_found;

			if (!!(found & 1u << k) != there)
				continue;
			strbuf_printf(b, "%s%s", sep, set ? rootport_files[k] : dev_files[k]);
			sep = ", ";
		}
}

/* "aer_dev_fatal missing beside aer_dev_correctable, aer_dev_nonfatal": the set is cut. */
static int partial_result(struct run *run, const struct pci_dev_info *d, const char *expected,
			  const struct aer_fn *f)
{
	_cleanup_(strbuf_done) struct strbuf b = {};
	_cleanup_(freep) char *actual = NULL;
	/* the totals are part of the set on a root port, or when one of them is there */
	bool totals = f->root_port_kind > 0 || (f->root_port_kind < 0 && f->rp_found);

	names_text(&b, f, totals, false);
	strbuf_printf(&b, " missing beside ");
	names_text(&b, f, totals, true);
	if (strbuf_take(&b, &actual) < 0)
		return -ENOMEM;
	return results_add(&run->results, &(const struct result_spec){
						  .verdict = VERDICT_UNKNOWN,
						  .check = CHECK_AER,
						  .object = d->addr,
						  .expected = expected,
						  .actual = actual,
						  .remedy = remedy_partial,
						  .action = ACTION_INSPECT,
					  });
}

static int fn_result(struct run *run, const struct aer_config *ac, const struct pci_dev_info *d,
		     const struct aer_fn *f)
{
	_cleanup_(freep) char *actual = NULL;
	char expected[96], remedy[512];
	bool bad;

	limits_text(ac, expected, sizeof(expected));
	if (f->set == AER_SET_PARTIAL)
		return partial_result(run, d, expected, f);
	if (f->err)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_UNKNOWN,
					    .check = CHECK_AER,
					    .object = d->addr,
					    .expected = expected,
					    .action = ACTION_INSPECT,
				    },
				    "%s unreadable: %s", f->err_what,
				    f->err == -EINVAL ? "not in the kernel's format"
						      : strerror(-f->err));
	if (counts_text(f, &actual) < 0)
		return -ENOMEM;
	bad = fn_exceeds(ac, f);
	snprintf(remedy, sizeof(remedy), remedy_exceeded, d->addr);
	return results_add(&run->results,
			   &(const struct result_spec){
				   .verdict = !bad				  ? VERDICT_PASS
					      : ac->exceeded == AER_EXCEEDED_FAIL ? VERDICT_FAIL
										  : VERDICT_WARN,
				   .check = CHECK_AER,
				   .object = d->addr,
				   .expected = expected,
				   .actual = actual,
				   .remedy = bad ? remedy : NULL,
				   .action = ACTION_HARDWARE,
			   });
}

/* The GPUs and NICs and every bridge above them (want[], by device index). */
static int mark_functions(struct run *run, bool *want, size_t *n_want)
{
	const struct pci_inventory *inv = &run->pci_inv;
	const struct topology *t;
	int r;

	r = topo_run_endpoints(run, &t);
	if (r < 0)
		return r;
	for (size_t e = 0; e < t->n; e++) {
		int p = (int)t->eps[e].dev;

		/* the PCIe types tell a root port (a missing one leaves the guess by place) */
		(void)topo_load_path_caps(run->pci, &run->pci_inv, t->eps[e].dev);
		for (size_t depth = 0; p >= 0 && depth < 64; depth++) {
			*n_want += !want[p];
			want[p] = true;
			p = inv->devs[p].parent;
		}
	}
	return 0;
}

static int absent_result(struct run *run, size_t absent, size_t total)
{
	if (!absent)
		return 0;
	return results_addf(&run->results,
			    &(const struct result_spec){
				    .verdict = VERDICT_SKIP,
				    .check = CHECK_AER,
				    .object = "host",
				    .expected = "AER counters",
				    .remedy = remedy_absent,
				    .action = ACTION_NONE,
			    },
			    absent == total ? "no AER counters on any of the %zu functions"
					    : "no AER counters on %zu of the %zu functions",
			    absent, total);
}

static int aer_judge(struct run *run, const struct aer_config *ac)
{
	const struct pci_inventory *inv = &run->pci_inv;
	_cleanup_(freep) bool *want = calloc(inv->n ? inv->n : 1, sizeof(bool));
	size_t n_want = 0, absent = 0;
	int r;

	if (!want)
		return -ENOMEM;
	r = mark_functions(run, want, &n_want);
	if (r < 0)
		return r;
	if (n_want == 0)
		return results_add(&run->results,
				   &(const struct result_spec){
					   .verdict = VERDICT_SKIP,
					   .check = CHECK_AER,
					   .object = "host",
					   .expected = "the GPUs and NICs and their ports",
					   .actual = "no GPU or NIC on PCI",
					   .action = ACTION_NONE,
				   });
	for (size_t i = 0; i < inv->n; i++) {
		struct aer_fn f;

		if (!want[i])
			continue;
		fn_read(run, inv, i, &f);
		if (f.err == -ENOENT) {
			absent++;
			continue;
		}
		r = fn_result(run, ac, &inv->devs[i], &f);
		if (r < 0)
			return r;
	}
	return absent_result(run, absent, n_want);
}

static bool aer_wants_pci(const struct run *run)
{
	return aer_config_get(run->cfg); /* no [AER]: nothing read, nothing reported */
}

static int aer_verify(struct run *run)
{
	const struct aer_config *ac = aer_config_get(run->cfg);

	if (!ac)
		return 0;
	if (run->pci_err < 0)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_UNKNOWN,
					    .check = CHECK_AER,
					    .object = "host",
					    .expected = "readable PCI devices",
					    .action = ACTION_INSPECT,
				    },
				    "cannot enumerate PCI devices: %s", strerror(-run->pci_err));
	return aer_judge(run, ac);
}

/* The topology's classification reads the candidates' capabilities (topo_wants_caps()). */
static unsigned aer_pci_wants_caps(const struct run *run, const struct pci_dev_info *info)
{
	return topo_wants_own_caps(info, (void *)topo_config_get(run->cfg));
}

const struct run_module run_module_aer = {
	.name = "aer",
	.wants_pci = aer_wants_pci,
	.pci_wants_caps = aer_pci_wants_caps,
	.verify = aer_verify,
};

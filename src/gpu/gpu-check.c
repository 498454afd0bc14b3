// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * [GPU]: the judgement. The GPUs are the run's PCI inventory's NVIDIA display and 3D
 * controllers; the driver's own files say which of them it initialised; NVML (live, or
 * recorded under --root: nvml.h) says the rest. What could not be read is unknown.
 */
#include <ctype.h>

#include "core/log.h"
#include "run/run.h"
#include "gpu/gpu.h"
#include "nvml/nvml-api.h"
#include "nvml/nvml.h"
#include "nvml/nvml-run.h"
#include "topo/gpus.h"
#include "workload/workload.h"

#define NV_VENDOR 0x10de
/* the driver's procfs directory, as results name it (the root's owner builds the path) */
#define GPU_DRIVER_FILES "the nvidia driver's procfs"
#define GPU_INFO_MAX	 4096

struct gpu_ctx {
	struct run *run;
	const struct gpu_config *gc;
	struct nvml_facts nv; /* the run's NVML answers (nvml-run.h), a copy of the handle */
	const char *source;   /* "NVML" or "NVML recorded in <path>" */
	char remedy[256];
	const char *tag; /* "NVML" or "recorded NVML": which one answered, in each actual */
	char tagged[128];
	size_t n_switches; /* NVSwitch functions on the bus (HGX/DGX baseboards) */
};

static const char *tagged(struct gpu_ctx *c, const char *what)
{
	snprintf(c->tagged, sizeof(c->tagged), "%s (%s)", what, c->tag);
	return c->tagged;
}

/*
 * An NVIDIA display or 3D controller, whatever its state: one that fell off the bus (Xid 79:
 * its config space reads all-ones) or became unreadable keeps the vendor and class the
 * kernel read at probe (its sysfs ids, pci.h), as the topology's GPU map counts it; it is
 * judged, and fails gpu.present, instead of dropping out of the check.
 */
static bool is_nvidia_gpu(const struct pci_dev_info *d)
{
	unsigned cls = d->id.class_code >> 8;

	return d->id.vendor == NV_VENDOR && (cls == 0x0300 || cls == 0x0302);
}

/* An NVSwitch as the host sees it: NVIDIA, class 0680 (bridge, other); any state, as above. */
static bool is_nvswitch(const struct pci_dev_info *d)
{
	return d->id.vendor == NV_VENDOR && (d->id.class_code >> 8) == 0x0680;
}

/* A remedy naming the GPU (fmt has one or two %s, each the address); in c's buffer. */
static const char *remedy_for(struct gpu_ctx *c, const char *addr, const char *fmt)
{
	snprintf(c->remedy, sizeof(c->remedy), fmt, addr, addr);
	return c->remedy;
}

static int add(struct gpu_ctx *c, enum verdict v, const char *check, const char *obj,
	       const char *expected, const char *actual, const char *remedy, enum action action)
{
	return results_add(&c->run->results, &(const struct result_spec){
						     .verdict = v,
						     .check = check,
						     .object = obj,
						     .expected = expected,
						     .actual = actual,
						     .remedy = remedy,
						     .action = action,
					     });
}

/* --- versions --------------------------------------------------------------------- */

bool gpu_version_valid(const char *s, int base)
{
	int fields = 0;

	for (const char *p = s;; p++) {
		size_t n = 0;

		while (base == 16 ? isxdigit((unsigned char)p[n]) : isdigit((unsigned char)p[n]))
			n++;
		if (n == 0 || n > 8 || ++fields > 8)
			return false;
		p += n;
		if (*p == '\0')
			return true;
		if (*p != '.')
			return false;
	}
}

/* The next field of a version as a number; *s moves past it and its dot (to the end on junk). */
static unsigned long version_field(const char **s, int base)
{
	char *end;
	unsigned long v;

	if (!**s)
		return 0;
	v = strtoul(*s, &end, base);
	if (end == *s || (*end && *end != '.')) {
		*s += strlen(*s); /* "-open" and the like: compared as the end */
		return end == *s ? 0 : v;
	}
	*s = end + (*end == '.');
	return v;
}

int gpu_version_cmp(const char *a, const char *b, int base)
{
	while (*a || *b) {
		unsigned long x = version_field(&a, base), y = version_field(&b, base);

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

/* --- the driver --------------------------------------------------------------------- */

static const char *driver_expected(const struct gpu_config *gc, char *buf, size_t size)
{
	if (gc->driver[0])
		snprintf(buf, size, "nvidia %s loaded", gc->driver);
	else if (gc->min_driver[0])
		snprintf(buf, size, "nvidia >= %s loaded", gc->min_driver);
	else
		snprintf(buf, size, "nvidia loaded");
	return buf;
}

/* *loaded: whether the module is (its GPUs are judged then). */
static int driver_result(struct gpu_ctx *c, size_t n_gpus, bool *loaded)
{
	const struct gpu_config *gc = c->gc;
	_cleanup_(freep) char *ver = NULL;
	char exp[GPU_VERSION_MAX + 24], act[512];
	int r = sysroot_read_attr(c->run->root, SYSROOT_SYS, &ver, "module/nvidia/version");

	driver_expected(gc, exp, sizeof(exp));
	*loaded = r >= 0;
	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT || r == -ENOTDIR)
		return add(c, VERDICT_FAIL, "gpu.driver", "host", exp,
			   n_gpus ? "the nvidia module is not loaded"
				  : "no NVIDIA GPU on the bus, no nvidia module",
			   n_gpus ? "load the NVIDIA driver (modprobe nvidia); dmesg | grep NVRM "
				    "says why it did not load"
				  : "this host has no NVIDIA GPU: a [GPU] section does not fit it "
				    "(keep it in a drop-in for the GPU hosts only)",
			   n_gpus ? ACTION_DRIVER : ACTION_CONFIG);
	if (r < 0)
		return results_addf(&c->run->results,
				    &(const struct result_spec){ .verdict = VERDICT_UNKNOWN,
								 .check = "gpu.driver",
								 .object = "host",
								 .expected = exp,
								 .action = ACTION_INSPECT },
				    "cannot read the nvidia module's version: %s", strerror(-r));
	if (strstr(c->nv.why, "LIB_RM_VERSION_MISMATCH")) {
		snprintf(act, sizeof(act), "nvidia %s loaded, NVML %s: %s", ver,
			 c->nv.driver[0] ? c->nv.driver : "of another version", c->nv.why);
		return add(c, VERDICT_FAIL, "gpu.driver", "host", exp, act,
			   "the driver was upgraded without a reboot: reboot (the loaded module "
			   "and the installed libraries differ)",
			   ACTION_REBOOT);
	}
	if ((gc->driver[0] && !streq(ver, gc->driver)) ||
	    (gc->min_driver[0] && gpu_version_cmp(ver, gc->min_driver, 10) < 0)) {
		snprintf(act, sizeof(act), "nvidia %s loaded", ver);
		return add(c, VERDICT_FAIL, "gpu.driver", "host", exp, act,
			   "install the NVIDIA driver the config names, then reboot",
			   ACTION_DRIVER);
	}
	snprintf(act, sizeof(act), "nvidia %s loaded", ver);
	return add(c, VERDICT_PASS, "gpu.driver", "host", exp, act, NULL, ACTION_NONE);
}

/* --- one GPU ------------------------------------------------------------------------ */

static int present_result(struct gpu_ctx *c, const char *addr, const struct nvml_gpu *g,
			  char *vbios, size_t vsize)
{
	_cleanup_(freep) char *info = NULL;
	struct nv_info ni = {};
	char act[256];
	int r = sysroot_read_file(c->run->root, SYSROOT_PROC, GPU_INFO_MAX, &info, NULL,
				  "driver/nvidia/gpus/%s/information", addr);

	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT || r == -ENOTDIR) {
		snprintf(act, sizeof(act), "on the bus, not initialised by the driver%s",
			 g && g->handle_rc == NVML_ERROR_GPU_IS_LOST ? " (NVML: GPU_IS_LOST)" : "");
		return add(c, VERDICT_FAIL, "gpu.present", addr, "initialised by the driver", act,
			   "dmesg | grep -e NVRM -e Xid names why; reset the GPU "
			   "(nvidia-smi -r) or reboot; if it stays: service",
			   ACTION_RESET_GPU);
	}
	if (r < 0)
		return results_addf(
			&c->run->results,
			&(const struct result_spec){ .verdict = VERDICT_UNKNOWN,
						     .check = "gpu.present",
						     .object = addr,
						     .expected = "initialised by the driver",
						     .action = ACTION_INSPECT },
			"cannot read the driver's entry (driver/nvidia/gpus/%s): %s", addr,
			strerror(-r));
	if (nv_info_parse(info, &ni) >= 0) /* the GPU map's reader of the same file */
		snprintf(vbios, vsize, "%s", ni.vbios);
	if (ni.excluded)
		return add(c, VERDICT_FAIL, "gpu.present", addr, "initialised by the driver",
			   "excluded by the driver (GPU Excluded: Yes, NVreg_ExcludedGpus): "
			   "nvidia-smi and CUDA do not see it",
			   "take it out of NVreg_ExcludedGpus (the nvidia module's options in "
			   "modprobe.d) and reload the driver or reboot; if it was excluded as "
			   "faulty: service",
			   ACTION_CONFIG);
	return add(c, VERDICT_PASS, "gpu.present", addr, "initialised by the driver",
		   "initialised (" GPU_DRIVER_FILES ")", NULL, ACTION_NONE);
}

/* NULL: NVML has an answer for this GPU's question q; else why not (an unknown's actual). */
static const char *nvml_missing(struct gpu_ctx *c, const struct nvml_gpu *g, const char *call,
				int rc, char *buf, size_t size)
{
	char name[16];

	if (!c->nv.loaded)
		snprintf(buf, size, "needs NVML: %s", c->nv.why);
	else if (!g)
		snprintf(buf, size, "%s does not list this GPU", c->source);
	else if (g->handle_rc)
		snprintf(buf, size, "%s: nvmlDeviceGetHandleByIndex_v2: %s", c->source,
			 nvml_rc_name(g->handle_rc, name));
	else if (rc)
		snprintf(buf, size, "%s: %s: %s", c->source, call, nvml_rc_name(rc, name));
	else
		return NULL;
	return buf;
}

static int unknown(struct gpu_ctx *c, const char *check, const char *addr, const char *exp,
		   const char *why, const struct nvml_gpu *g)
{
	/* a GPU NVML lost is a failure, not a question left open */
	if (g && g->handle_rc == NVML_ERROR_GPU_IS_LOST)
		return add(c, VERDICT_FAIL, check, addr, exp, why,
			   "the GPU fell off the bus: reset it (nvidia-smi -r) or reboot; if it "
			   "stays: service",
			   ACTION_RESET_GPU);
	return add(c, VERDICT_UNKNOWN, check, addr, exp, why, NULL, ACTION_INSPECT);
}

static int persistence_result(struct gpu_ctx *c, const char *addr, const struct nvml_gpu *g)
{
	const struct nvml_answer *a = g ? &g->q[NVQ_PERSISTENCE] : NULL;
	char why[256];

	if (nvml_missing(c, g, "nvmlDeviceGetPersistenceMode", a ? a->rc : 0, why, sizeof(why)))
		return unknown(c, "gpu.persistence", addr, "on", why, g);
	if (a->v[0] == NVML_FEATURE_ENABLED)
		return add(c, VERDICT_PASS, "gpu.persistence", addr, "on", tagged(c, "on"), NULL,
			   ACTION_NONE);
	return add(c, VERDICT_FAIL, "gpu.persistence", addr, "on", tagged(c, "off"),
		   "systemctl enable --now nvidia-persistenced (each first use otherwise "
		   "initialises the GPU again, and a job's start waits for it)",
		   ACTION_CONFIG);
}

static int mig_result(struct gpu_ctx *c, const char *addr, const struct nvml_gpu *g)
{
	const struct nvml_answer *a = g ? &g->q[NVQ_MIG] : NULL;
	bool on = c->gc->mig == GPU_ON;
	const char *exp = on ? "MIG on" : "MIG off";
	char why[256], act[128];

	if (a && a->rc == NVML_ERROR_NOT_SUPPORTED && !g->handle_rc && c->nv.loaded)
		return add(c, on ? VERDICT_FAIL : VERDICT_PASS, "gpu.mig", addr, exp,
			   "this GPU has no MIG (NVML: NOT_SUPPORTED)",
			   on ? "MIG=on needs an A100/A30/H100/H200/B200-class GPU: fix the "
				"config's host class"
			      : NULL,
			   ACTION_CONFIG);
	if (nvml_missing(c, g, "nvmlDeviceGetMigMode", a ? a->rc : 0, why, sizeof(why)))
		return unknown(c, "gpu.mig", addr, exp, why, g);
	snprintf(act, sizeof(act), "MIG %s, %s after the next reset (%s)", a->v[0] ? "on" : "off",
		 a->v[1] ? "on" : "off", c->tag);
	if ((a->v[0] != 0) != on)
		return add(c, VERDICT_FAIL, "gpu.mig", addr, exp, act,
			   remedy_for(c, addr,
				      on ? "nvidia-smi -i %s -mig 1, then nvidia-smi -r -i %s"
					 : "nvidia-smi -i %s -mig 0, then nvidia-smi -r -i %s"),
			   ACTION_CONFIG);
	if ((a->v[1] != 0) != on)
		return add(c, VERDICT_FAIL, "gpu.mig", addr, exp, act,
			   "a MIG change is pending: put it back (nvidia-smi -mig) or the next "
			   "GPU reset changes the mode",
			   ACTION_RESET_GPU);
	return add(c, VERDICT_PASS, "gpu.mig", addr, exp, act, NULL, ACTION_NONE);
}

static int vbios_result(struct gpu_ctx *c, const char *addr, const struct nvml_gpu *g,
			const char *info_vbios)
{
	const struct nvml_answer *a = g ? &g->q[NVQ_VBIOS] : NULL;
	const char *v = a && !a->rc && g && !g->handle_rc && c->nv.loaded ? a->s : info_vbios;
	char exp[GPU_VERSION_MAX + 8], act[128];

	snprintf(exp, sizeof(exp), ">= %s", c->gc->min_vbios);
	if (!v || !v[0] || !gpu_version_valid(v, 16))
		return add(c, VERDICT_UNKNOWN, "gpu.vbios", addr, exp,
			   "no VBIOS version (neither NVML nor " GPU_DRIVER_FILES " gave one)",
			   NULL, ACTION_INSPECT);
	snprintf(act, sizeof(act), "%s (%s)", v, v == info_vbios ? GPU_DRIVER_FILES : c->tag);
	if (gpu_version_cmp(v, c->gc->min_vbios, 16) < 0)
		return add(c, VERDICT_FAIL, "gpu.vbios", addr, exp, act,
			   "update the GPU firmware with the vendor's bundle (nvfwupd on HGX), "
			   "then reboot",
			   ACTION_DRIVER);
	return add(c, VERDICT_PASS, "gpu.vbios", addr, exp, act, NULL, ACTION_NONE);
}

static int ecc_result(struct gpu_ctx *c, const char *addr, const struct nvml_gpu *g)
{
	const struct nvml_answer *a = g ? &g->q[NVQ_ECC_UNC_VOL] : NULL;
	const char *exp = "no uncorrectable ECC error";
	char why[256], act[128];

	if (a && a->rc == NVML_ERROR_NOT_SUPPORTED && !g->handle_rc && c->nv.loaded)
		return add(c, VERDICT_SKIP, "gpu.ecc", addr, exp,
			   "ECC is off or not supported on this GPU (NVML: NOT_SUPPORTED)", NULL,
			   ACTION_NONE);
	if (nvml_missing(c, g, "nvmlDeviceGetTotalEccErrors", a ? a->rc : 0, why, sizeof(why)))
		return unknown(c, "gpu.ecc", addr, exp, why, g);
	snprintf(act, sizeof(act), "%llu since the driver loaded (%s)", a->v[0], c->tag);
	if (a->v[0])
		return add(c, VERDICT_FAIL, "gpu.ecc", addr, exp, act,
			   remedy_for(c, addr,
				      "drain the node, reset the GPU (nvidia-smi -r -i %s) so "
				      "the failing rows are remapped; errors that return "
				      "after the reset: service"),
			   ACTION_RESET_GPU);
	return add(c, VERDICT_PASS, "gpu.ecc", addr, exp, act, NULL, ACTION_NONE);
}

static int remap_result(struct gpu_ctx *c, const char *addr, const struct nvml_gpu *g)
{
	const struct nvml_answer *a = g ? &g->q[NVQ_REMAP] : NULL;
	const char *exp = "none pending, none failed";
	char why[256], act[160];

	if (a && a->rc == NVML_ERROR_NOT_SUPPORTED && !g->handle_rc && c->nv.loaded)
		return 1; /* before A100: page retirement instead */
	if (nvml_missing(c, g, "nvmlDeviceGetRemappedRows", a ? a->rc : 0, why, sizeof(why)))
		return unknown(c, "gpu.row-remap", addr, exp, why, g);
	snprintf(act, sizeof(act),
		 "%llu rows remapped (%llu correctable, %llu uncorrectable)%s%s (%s)",
		 a->v[0] + a->v[1], a->v[0], a->v[1], a->v[2] ? ", one pending" : "",
		 a->v[3] ? ", a remap failed" : "", c->tag);
	if (a->v[3])
		return add(c, VERDICT_FAIL, "gpu.row-remap", addr, exp, act,
			   "a failed row remap is not repaired by a reset: drain the node and "
			   "have the GPU serviced (NVIDIA's row-remapping guide)",
			   ACTION_HARDWARE);
	if (a->v[2])
		return add(c, VERDICT_FAIL, "gpu.row-remap", addr, exp, act,
			   remedy_for(c, addr,
				      "reset the GPU (nvidia-smi -r -i %s) or reboot: the "
				      "remap takes effect then"),
			   ACTION_RESET_GPU);
	return add(c, VERDICT_PASS, "gpu.row-remap", addr, exp, act, NULL, ACTION_NONE);
}

static int retired_result(struct gpu_ctx *c, const char *addr, const struct nvml_gpu *g)
{
	const struct nvml_answer *a = g ? &g->q[NVQ_RETIRED_PENDING] : NULL;
	const char *exp = "no retired page pending";
	char why[256];

	if (nvml_missing(c, g, "nvmlDeviceGetRetiredPagesPendingStatus", a ? a->rc : 0, why,
			 sizeof(why)))
		return unknown(c, "gpu.retired-pages", addr, exp, why, g);
	if (a->v[0] == NVML_FEATURE_ENABLED)
		return add(c, VERDICT_FAIL, "gpu.retired-pages", addr, exp,
			   tagged(c, "a page retirement is pending"),
			   remedy_for(c, addr,
				      "reset the GPU (nvidia-smi -r -i %s) or reboot: the page "
				      "is retired then"),
			   ACTION_RESET_GPU);
	return add(c, VERDICT_PASS, "gpu.retired-pages", addr, exp, tagged(c, "none pending"), NULL,
		   ACTION_NONE);
}

static int memory_results(struct gpu_ctx *c, const char *addr, const struct nvml_gpu *g)
{
	int r = ecc_result(c, addr, g);

	if (r >= 0)
		r = remap_result(c, addr, g);
	if (r == 1) /* no row remapping on this GPU: page retirement is its repair */
		r = retired_result(c, addr, g);
	return r < 0 ? r : 0;
}

/* --- NVSwitch fabric and NVLink ------------------------------------------------------- */

/* "5 7" of the links in mask; in c's remedy-sized buffer the caller hands. */
static void links_text(unsigned mask, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned l = 0; l < NVML_LINKS_MAX; l++)
		if (mask & (1u << l))
			n += snprintf(buf + n, n < size ? size - n : 0, "%s%u", n ? " " : "", l);
}

/* Whether gpu.nvlink judges this GPU: declared, an NVSwitch host, or links reported. */
static bool nvlink_judged(const struct gpu_ctx *c, const struct nvml_links *l)
{
	if (c->gc->nvlinks == GPU_NVLINKS_ANY)
		return false;
	return c->gc->nvlinks > 0 || c->n_switches || l->rc == NVML_SUCCESS;
}

static const char *nvlink_expected(const struct gpu_ctx *c, char *buf, size_t size)
{
	if (c->gc->nvlinks > 0)
		snprintf(buf, size, "at least %d NVLinks active", c->gc->nvlinks);
	else
		snprintf(buf, size, "every NVLink active");
	return buf;
}

static int nvlink_result(struct gpu_ctx *c, const char *addr, const struct nvml_gpu *g)
{
	struct nvml_links l = { .rc = NVML_ERROR_FUNCTION_NOT_FOUND };
	char exp[48], why[256], act[160], down[64];
	unsigned want;

	if (g)
		nvml_links_sum(g, &l);
	if (!nvlink_judged(c, &l))
		return 0;
	nvlink_expected(c, exp, sizeof(exp));
	if (l.rc == NVML_ERROR_NOT_SUPPORTED && !g->handle_rc && c->nv.loaded)
		return add(c, c->gc->nvlinks > 0 ? VERDICT_FAIL : VERDICT_SKIP, "gpu.nvlink", addr,
			   exp, "this GPU has no NVLink (NVML: NOT_SUPPORTED)",
			   c->gc->nvlinks > 0 ? "NVLinks= fits SXM/NVL GPUs only: keep it in a "
						"drop-in for those hosts"
					      : NULL,
			   ACTION_CONFIG);
	if (nvml_missing(c, g, "nvmlDeviceGetNvLinkState", l.rc, why, sizeof(why)))
		return unknown(c, "gpu.nvlink", addr, exp, why, g);
	want = c->gc->nvlinks > 0 ? (unsigned)c->gc->nvlinks : l.n;
	links_text(l.down, down, sizeof(down));
	snprintf(act, sizeof(act), "%u of %u active%s%s (%s)", l.active, l.n,
		 down[0] ? "; down: link " : "", down, c->tag);
	if (want > l.n)
		return add(c, VERDICT_FAIL, "gpu.nvlink", addr, exp, act,
			   "the GPU has fewer NVLinks than NVLinks= asks: fix the config's host "
			   "class",
			   ACTION_CONFIG);
	if (l.active < want)
		return add(c, VERDICT_FAIL, "gpu.nvlink", addr, exp, act,
			   remedy_for(c, addr,
				      "nvidia-smi nvlink -s -i %s shows the links; reset the GPU "
				      "(nvidia-smi -r -i %s; on NVSwitch hosts restart "
				      "nvidia-fabricmanager after) or reboot; a link that stays "
				      "down: service the baseboard"),
			   ACTION_RESET_GPU);
	return add(c, VERDICT_PASS, "gpu.nvlink", addr, exp, act, NULL, ACTION_NONE);
}

static const char *fabric_state_name(unsigned long long state)
{
	switch (state) {
	case NVML_GPU_FABRIC_STATE_NOT_SUPPORTED:
		return "not supported";
	case NVML_GPU_FABRIC_STATE_NOT_STARTED:
		return "not started";
	case NVML_GPU_FABRIC_STATE_IN_PROGRESS:
		return "in progress";
	case NVML_GPU_FABRIC_STATE_COMPLETED:
		return "completed";
	}
	return "unknown state";
}

/* A fabric answer that is not "completed with success": its verdict's remedy and action. */
static int fabric_fail(struct gpu_ctx *c, const char *addr, const char *exp,
		       const struct nvml_answer *a)
{
	char act[160], name[16];

	if (a->v[0] == NVML_GPU_FABRIC_STATE_COMPLETED) {
		snprintf(act, sizeof(act), "completed with %s (%s)",
			 nvml_rc_name((int)a->v[1], name), c->tag);
		return add(c, VERDICT_FAIL, "gpu.fabric", addr, exp, act,
			   "journalctl -u nvidia-fabricmanager names the cause; reset the GPUs "
			   "and restart nvidia-fabricmanager, or reboot",
			   ACTION_RESET_GPU);
	}
	snprintf(act, sizeof(act), "%s (%s)", fabric_state_name(a->v[0]), c->tag);
	if (a->v[0] == NVML_GPU_FABRIC_STATE_IN_PROGRESS)
		return add(c, VERDICT_FAIL, "gpu.fabric", addr, exp, act,
			   "the fabric manager is still training the NVLink fabric: CUDA "
			   "fails with \"system not yet initialized\" until it completes; if it "
			   "stays: journalctl -u nvidia-fabricmanager",
			   ACTION_INSPECT);
	return add(c, VERDICT_FAIL, "gpu.fabric", addr, exp, act,
		   "systemctl enable --now nvidia-fabricmanager (the package of the driver's "
		   "branch); journalctl -u nvidia-fabricmanager says why it did not register "
		   "the GPU",
		   ACTION_CONFIG);
}

static int fabric_result(struct gpu_ctx *c, const char *addr, const struct nvml_gpu *g)
{
	const struct nvml_answer *a = g ? &g->q[NVQ_FABRIC] : NULL;
	const char *exp = "fabric registration completed with success";
	bool unsupported = a && (a->rc == NVML_ERROR_NOT_SUPPORTED ||
				 (!a->rc && a->v[0] == NVML_GPU_FABRIC_STATE_NOT_SUPPORTED));
	char why[256], act[96];

	/* judged on NVSwitch hosts, and wherever NVML says the GPU is part of a fabric */
	if (!c->n_switches && (!a || a->rc || unsupported))
		return 0;
	if (unsupported && !g->handle_rc && c->nv.loaded)
		return add(c, VERDICT_SKIP, "gpu.fabric", addr, exp,
			   "NVML has no fabric state for this GPU (before Hopper): the fabric "
			   "manager's own state is the evidence",
			   NULL, ACTION_NONE);
	if (nvml_missing(c, g, "nvmlDeviceGetGpuFabricInfo", a ? a->rc : 0, why, sizeof(why)))
		return unknown(c, "gpu.fabric", addr, exp, why, g);
	if (a->v[0] != NVML_GPU_FABRIC_STATE_COMPLETED || a->v[1] != NVML_SUCCESS)
		return fabric_fail(c, addr, exp, a);
	snprintf(act, sizeof(act), "completed, clique %llu (%s)", a->v[2], c->tag);
	return add(c, VERDICT_PASS, "gpu.fabric", addr, exp, act, NULL, ACTION_NONE);
}

#define FM_UNIT	  "nvidia-fabricmanager.service"
#define FM_RECORD "hostprep/snapshot/fabricmanager.txt" /* below /run: "LOAD ACTIVE" */

/*
 * The fabric manager's LoadState and ActiveState: from systemd over the bus (recorded for
 * a snapshot's replay), or under --root without a bus address from the root's record.
 */
static int fm_state(struct gpu_ctx *c, char **load, char **active, char **why)
{
	_cleanup_(freep) char *text = NULL;
	const struct sysroot *root = c->run->root;
	int r;

	if (sysroot_is_host(root) || getenv("DBUS_SYSTEM_BUS_ADDRESS")) {
		r = workload_unit_state(c->run, FM_UNIT, load, active, why);
		if (r >= 0 && asprintf(&text, "%s %s\n", *load, *active) < 0)
			return -ENOMEM;
		if (r >= 0 && sysroot_is_host(root))
			sysroot_note_data(SYSROOT_RUN, FM_RECORD, text, strlen(text));
		return r;
	}
	r = sysroot_read_file(root, SYSROOT_RUN, 256, &text, NULL, "%s", FM_RECORD);
	if (r == -ENOMEM)
		return r;
	if (r >= 0 && sscanf(text, "%ms %ms", load, active) == 2)
		return 0;
	free(*load);
	*load = NULL;
	if (asprintf(why,
		     "no system bus under --root, and no state recorded in /run/%s (set "
		     "DBUS_SYSTEM_BUS_ADDRESS to read that host's systemd)",
		     FM_RECORD) < 0)
		return -ENOMEM;
	return -ENXIO;
}

static int fm_result(struct gpu_ctx *c)
{
	_cleanup_(freep) char *load = NULL, *active = NULL, *why = NULL;
	const char *exp = "active (NVSwitch on the bus)";
	char act[128];
	int r = fm_state(c, &load, &active, &why);

	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return add(c, VERDICT_UNKNOWN, "gpu.fabric-manager", FM_UNIT, exp, why,
			   "run hostprep on the host itself, where systemd answers on the "
			   "system bus",
			   ACTION_INSPECT);
	snprintf(act, sizeof(act), "%s (systemd: LoadState=%s)", active, load);
	if (streq(active, "active"))
		return add(c, VERDICT_PASS, "gpu.fabric-manager", FM_UNIT, exp, act, NULL,
			   ACTION_NONE);
	if (streq(load, "not-found"))
		return add(c, VERDICT_FAIL, "gpu.fabric-manager", FM_UNIT, exp, act,
			   "install nvidia-fabricmanager of the driver's branch (its version "
			   "must match the driver's), then systemctl enable --now "
			   "nvidia-fabricmanager",
			   ACTION_DRIVER);
	return add(c, VERDICT_FAIL, "gpu.fabric-manager", FM_UNIT, exp, act,
		   "systemctl enable --now nvidia-fabricmanager; journalctl -u "
		   "nvidia-fabricmanager says why it stopped (a version other than the "
		   "driver's is the usual cause)",
		   ACTION_CONFIG);
}

/*
 * A GPU whose config space does not answer: the one cause, no line that asks NVML or the
 * driver's entry (both may still describe it as it was before it went).
 */
static int unresponsive_result(struct gpu_ctx *c, const struct pci_dev_info *d)
{
	const char *exp = "initialised by the driver";

	if (d->state == PCI_DEV_DEAD)
		return add(
			c, VERDICT_FAIL, "gpu.present", d->addr, exp,
			"not responding: config space reads all-ones (fell off the bus, "
			"Xid 79)",
			"drain and reboot the node (a GPU that fell off the bus rarely comes "
			"back after a reset); dmesg | grep -e NVRM -e Xid says since when; if it "
			"returns after the reboot: reseat the GPU, check its riser and power "
			"(field service)",
			ACTION_REBOOT);
	return results_addf(
		&c->run->results,
		&(const struct result_spec){
			.verdict = VERDICT_FAIL,
			.check = "gpu.present",
			.object = d->addr,
			.expected = exp,
			.remedy = "dmesg | grep -e NVRM -e Xid -e 'PCIe Bus Error'; reset "
				  "the GPU or reboot; if it stays: service",
			.action = ACTION_HARDWARE,
		},
		"config space unreadable (%s): removed, or its sysfs entry dangles",
		strerror(-d->err));
}

static int one_gpu(struct gpu_ctx *c, const struct pci_dev_info *d)
{
	const char *addr = d->addr;
	const struct nvml_gpu *g;
	char vbios[32] = "";
	int r;

	if (d->state != PCI_DEV_OK)
		return unresponsive_result(c, d);
	g = c->nv.loaded ? nvml_find(&c->nv, addr) : NULL;
	r = present_result(c, addr, g, vbios, sizeof(vbios));

	if (r >= 0 && c->gc->persistence)
		r = persistence_result(c, addr, g);
	if (r >= 0 && c->gc->mig != GPU_ANY)
		r = mig_result(c, addr, g);
	if (r >= 0 && c->gc->min_vbios[0])
		r = vbios_result(c, addr, g, vbios);
	if (r >= 0)
		r = memory_results(c, addr, g);
	if (r >= 0)
		r = fabric_result(c, addr, g);
	if (r >= 0)
		r = nvlink_result(c, addr, g);
	return r;
}

/* --- NVML: the run's answers --------------------------------------------------------- */

static int nvml_load(struct gpu_ctx *c)
{
	const struct nvml_view *v;
	int r = nvml_run_view(c->run, &v);

	if (r < 0)
		return r;
	c->nv = v->facts; /* shallow: the run owns the GPUs' array */
	c->source = v->source;
	c->tag = v->tag;
	return 0;
}

int gpu_verify(struct run *run)
{
	struct gpu_ctx c = { .run = run, .gc = gpu_config_get(run->cfg) };
	bool loaded = false;
	size_t n_gpus = 0;
	int r = 0;

	if (!c.gc)
		return 0; /* no [GPU] section: nothing read, nothing reported */
	if (run->pci_err < 0)
		return results_addf(&run->results,
				    &(const struct result_spec){ .verdict = VERDICT_UNKNOWN,
								 .check = "gpu.driver",
								 .object = "host",
								 .expected = "nvidia loaded",
								 .action = ACTION_INSPECT },
				    "cannot enumerate PCI devices: %s", strerror(-run->pci_err));
	for (size_t i = 0; i < run->pci_inv.n; i++) {
		n_gpus += is_nvidia_gpu(&run->pci_inv.devs[i]);
		c.n_switches += is_nvswitch(&run->pci_inv.devs[i]);
	}
	if (n_gpus) /* memory health needs NVML whatever else is declared */
		r = nvml_load(&c);
	if (r >= 0)
		r = driver_result(&c, n_gpus, &loaded);
	if (r >= 0 && loaded && c.n_switches)
		r = fm_result(&c);
	/* without the module loaded, gpu.driver is the one cause: no line per GPU */
	for (size_t i = 0; r >= 0 && loaded && i < run->pci_inv.n; i++)
		if (is_nvidia_gpu(&run->pci_inv.devs[i]))
			r = one_gpu(&c, &run->pci_inv.devs[i]);
	return r < 0 ? r : 0;
}

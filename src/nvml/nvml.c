// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NVML's answers (nvml.h) in the record format: the live library is asked in a child
 * process that writes them in this format (nvml-live.c), so one parser reads a live host,
 * a snapshot's record and the test tier's shim alike.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/macro.h"
#include "nvml/nvml-api.h"
#include "nvml/nvml.h"

#define NVML_GPUS_MAX 256

_Static_assert(NVML_LINKS_MAX == NVML_NVLINK_MAX_LINKS, "one bound for a GPU's NVLinks");

const char *nvml_rc_name(int rc, char buf[static 16])
{
	static const char *const names[] = {
		[NVML_SUCCESS] = "SUCCESS",
		[NVML_ERROR_UNINITIALIZED] = "UNINITIALIZED",
		[NVML_ERROR_INVALID_ARGUMENT] = "INVALID_ARGUMENT",
		[NVML_ERROR_NOT_SUPPORTED] = "NOT_SUPPORTED",
		[NVML_ERROR_NO_PERMISSION] = "NO_PERMISSION",
		[NVML_ERROR_NOT_FOUND] = "NOT_FOUND",
		[NVML_ERROR_INSUFFICIENT_SIZE] = "INSUFFICIENT_SIZE",
		[NVML_ERROR_DRIVER_NOT_LOADED] = "DRIVER_NOT_LOADED",
		[NVML_ERROR_TIMEOUT] = "TIMEOUT",
		[NVML_ERROR_LIBRARY_NOT_FOUND] = "LIBRARY_NOT_FOUND",
		[NVML_ERROR_FUNCTION_NOT_FOUND] = "FUNCTION_NOT_FOUND",
		[NVML_ERROR_CORRUPTED_INFOROM] = "CORRUPTED_INFOROM",
		[NVML_ERROR_GPU_IS_LOST] = "GPU_IS_LOST",
		[NVML_ERROR_RESET_REQUIRED] = "RESET_REQUIRED",
		[NVML_ERROR_LIB_RM_VERSION_MISMATCH] = "LIB_RM_VERSION_MISMATCH",
		[NVML_ERROR_NO_DATA] = "NO_DATA",
		[NVML_ERROR_ARGUMENT_VERSION_MISMATCH] = "ARGUMENT_VERSION_MISMATCH",
		[NVML_ERROR_NOT_READY] = "NOT_READY",
	};

	if (rc >= 0 && (size_t)rc < ARRAY_SIZE(names) && names[rc])
		return names[rc];
	if (rc == NVML_ERROR_UNKNOWN)
		return "UNKNOWN";
	snprintf(buf, 16, "error %d", rc);
	return buf;
}

/* --- the record format ------------------------------------------------------------ */

static const struct {
	const char *call;
	const char *qual; /* the words after RC that tell one question of a call from another */
	enum nvml_q q;
} calls[] = {
	{ "nvmlDeviceGetName", NULL, NVQ_NAME },
	{ "nvmlDeviceGetUUID", NULL, NVQ_UUID },
	{ "nvmlDeviceGetVbiosVersion", NULL, NVQ_VBIOS },
	{ "nvmlDeviceGetPersistenceMode", NULL, NVQ_PERSISTENCE },
	{ "nvmlDeviceGetMigMode", NULL, NVQ_MIG },
	{ "nvmlDeviceGetEccMode", NULL, NVQ_ECC_MODE },
	{ "nvmlDeviceGetTotalEccErrors", "uncorrected volatile", NVQ_ECC_UNC_VOL },
	{ "nvmlDeviceGetRetiredPagesPendingStatus", NULL, NVQ_RETIRED_PENDING },
	{ "nvmlDeviceGetRemappedRows", NULL, NVQ_REMAP },
	{ "nvmlDeviceGetGpuFabricInfo", NULL, NVQ_FABRIC },
};

/* "00000000:1B:00.0" (NVML) -> "0000:1b:00.0" (sysfs); anything else is kept as it is. */
static void bus_from_nvml(const char *s, char out[static 16])
{
	size_t n = strcspn(s, " ");

	if (n == 16 && strncmp(s, "0000", 4) == 0) {
		s += 4;
		n = 12;
	}
	snprintf(out, 16, "%.*s", (int)n, s);
	for (char *p = out; *p; p++)
		*p = (char)tolower((unsigned char)*p);
}

static struct nvml_gpu *gpu_at(struct nvml_facts *f, unsigned long idx)
{
	struct nvml_gpu *grown;

	if (idx >= NVML_GPUS_MAX)
		return NULL;
	if (idx < f->n)
		return &f->gpus[idx];
	grown = reallocarray(f->gpus, idx + 1, sizeof(*grown));
	if (!grown)
		return NULL;
	for (size_t i = f->n; i <= idx; i++) {
		grown[i] = (struct nvml_gpu){ .handle_rc = NVML_SUCCESS };
		for (int q = 0; q < _NVQ_MAX; q++)
			grown[i].q[q].rc = NVML_ERROR_FUNCTION_NOT_FOUND;
		for (int l = 0; l < NVML_LINKS_MAX; l++)
			grown[i].link[l] = (struct nvml_link){
				.rc = NVML_ERROR_FUNCTION_NOT_FOUND,
				.type_rc = NVML_ERROR_FUNCTION_NOT_FOUND,
				.remote_rc = NVML_ERROR_FUNCTION_NOT_FOUND,
			};
	}
	f->gpus = grown;
	f->n = idx + 1;
	return &f->gpus[idx];
}

/* The numbers of rest ("state=3 status=0 clique=1" counts as 3 0 1), at most 4. */
static void answer_numbers(const char *rest, struct nvml_answer *a)
{
	int k = 0;

	for (const char *p = rest; *p && k < 4;) {
		char *end;
		unsigned long long v;

		p += strcspn(p, "0123456789");
		if (!*p)
			break;
		v = strtoull(p, &end, 0);
		a->v[k++] = v;
		p = end;
	}
}

/*
 * "nvmlDeviceGetNvLinkState RC link=L ACTIVE", "...RemoteDeviceType RC link=L TYPE",
 * "...RemotePciInfo_v2 RC link=L BUSID": one link's answer. A line without a valid link
 * number is ignored, as any line that is not a record.
 */
static void link_line(struct nvml_gpu *g, const char *call, int rc, const char *rest)
{
	struct nvml_link *l;
	unsigned long n;
	char *end;

	if (strncmp(rest, "link=", 5) != 0)
		return;
	n = strtoul(rest + 5, &end, 10);
	if (end == rest + 5 || n >= NVML_LINKS_MAX || (*end && *end != ' '))
		return;
	l = &g->link[n];
	rest = end + (*end == ' ');
	if (streq(call, "nvmlDeviceGetNvLinkState")) {
		l->rc = rc;
		l->active = rc == 0 && strtoul(rest, NULL, 10) != 0;
	} else if (streq(call, "nvmlDeviceGetNvLinkRemoteDeviceType")) {
		l->type_rc = rc;
		l->type = rc == 0 ? (unsigned)strtoul(rest, NULL, 0)
				  : NVML_NVLINK_DEVICE_TYPE_UNKNOWN;
	} else if (streq(call, "nvmlDeviceGetNvLinkRemotePciInfo_v2")) {
		l->remote_rc = rc;
		if (rc == 0)
			bus_from_nvml(rest, l->remote);
	}
}

static void gpu_line(struct nvml_gpu *g, const char *call, int rc, const char *rest)
{
	if (strncmp(call, "nvmlDeviceGetNvLink", 19) == 0) {
		link_line(g, call, rc, rest);
		return;
	}
	if (streq(call, "nvmlDeviceGetHandleByIndex_v2")) {
		g->handle_rc = rc;
		return;
	}
	if (streq(call, "nvmlDeviceGetPciInfo_v3")) {
		if (rc == 0)
			bus_from_nvml(rest, g->bus);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(calls); i++) {
		struct nvml_answer *a = &g->q[calls[i].q];

		if (!streq(call, calls[i].call) ||
		    (calls[i].qual && strncmp(rest, calls[i].qual, strlen(calls[i].qual)) != 0))
			continue;
		*a = (struct nvml_answer){ .rc = rc };
		if (rc != 0)
			return;
		snprintf(a->s, sizeof(a->s), "%s", rest);
		answer_numbers(rest + (calls[i].qual ? strlen(calls[i].qual) : 0), a);
		return;
	}
}

static void host_line(struct nvml_facts *f, const char *call, int rc, const char *rest)
{
	char buf[16];

	if (streq(call, "nvmlInit_v2") || streq(call, "dlopen") || streq(call, "child")) {
		f->loaded = rc == 0;
		if (rc != 0)
			snprintf(f->why, sizeof(f->why), "%s: %s%s%s", call, nvml_rc_name(rc, buf),
				 rest[0] ? ": " : "", rest);
	} else if (streq(call, "nvmlSystemGetDriverVersion") && rc == 0)
		snprintf(f->driver, sizeof(f->driver), "%s", rest);
}

static int parse_line(struct nvml_facts *f, char *line)
{
	unsigned long idx = 0;
	bool gpu = false;
	char *call, *rest, *end;
	long rc;

	if (strncmp(line, "gpu", 3) == 0 && isdigit((unsigned char)line[3])) {
		idx = strtoul(line + 3, &end, 10);
		if (*end != ' ')
			return 0;
		gpu = true;
		line = end + 1;
	}
	call = line;
	rest = line + strcspn(line, " ");
	if (*rest == '\0')
		return 0;
	*rest++ = '\0';
	rc = strtol(rest, &end, 10);
	if (end == rest || (*end && *end != ' '))
		return 0; /* not a record line (the "rc=0" the capture adds): ignored */
	rest = end + (*end == ' ');
	if (!gpu) {
		host_line(f, call, (int)rc, rest);
		return 0;
	}
	struct nvml_gpu *g = gpu_at(f, idx);

	if (!g)
		return idx >= NVML_GPUS_MAX ? 0 : -ENOMEM;
	gpu_line(g, call, (int)rc, rest);
	return 0;
}

int nvml_parse(const char *text, struct nvml_facts *f)
{
	_cleanup_(freep) char *copy = strdup(text);
	char *save = NULL;
	int r = 0;

	*f = (struct nvml_facts){ .loaded = true };
	if (!copy)
		return -ENOMEM;
	for (char *l = strtok_r(copy, "\n", &save); l && r >= 0; l = strtok_r(NULL, "\n", &save))
		r = parse_line(f, l);
	return r;
}

const struct nvml_gpu *nvml_find(const struct nvml_facts *f, const char *bus)
{
	for (size_t i = 0; i < f->n; i++)
		if (streq(f->gpus[i].bus, bus))
			return &f->gpus[i];
	return NULL;
}

/* --- NVLink ----------------------------------------------------------------------- */

/* A link question's answer that says the link is not there (past the GPU's last link). */
static bool link_absent(int rc)
{
	return rc == NVML_ERROR_NOT_SUPPORTED || rc == NVML_ERROR_INVALID_ARGUMENT ||
	       rc == NVML_ERROR_FUNCTION_NOT_FOUND;
}

void nvml_links_sum(const struct nvml_gpu *g, struct nvml_links *ret)
{
	int err = 0;

	*ret = (struct nvml_links){ .rc = g->link[0].rc };
	for (unsigned l = 0; l < NVML_LINKS_MAX; l++) {
		const struct nvml_link *k = &g->link[l];

		if (k->rc && !link_absent(k->rc) && !err)
			err = k->rc;
		if (k->rc)
			continue;
		ret->n++;
		if (!k->active) {
			ret->down |= 1u << l;
			continue;
		}
		ret->active++;
		ret->to_switch += !k->type_rc && k->type == NVML_NVLINK_DEVICE_TYPE_SWITCH;
	}
	if (err)
		ret->rc = err;
	else if (ret->n)
		ret->rc = 0;
}

/* The active links of a whose far end is b; *unnamed: active links of a NVML did not place. */
static unsigned links_to(const struct nvml_gpu *a, const struct nvml_gpu *b, unsigned *unnamed)
{
	unsigned n = 0;

	for (unsigned l = 0; l < NVML_LINKS_MAX; l++) {
		const struct nvml_link *k = &a->link[l];

		if (k->rc || !k->active)
			continue;
		if (!k->remote_rc)
			n += streq(k->remote, b->bus);
		else if (k->type_rc)
			(*unnamed)++;
	}
	return n;
}

/* Whether both GPUs' fabric info names a clique, and not the same one. */
static bool other_clique(const struct nvml_gpu *a, const struct nvml_gpu *b)
{
	const struct nvml_answer *x = &a->q[NVQ_FABRIC], *y = &b->q[NVQ_FABRIC];

	return !x->rc && !y->rc && x->v[0] == NVML_GPU_FABRIC_STATE_COMPLETED &&
	       y->v[0] == NVML_GPU_FABRIC_STATE_COMPLETED && x->v[2] != y->v[2];
}

int nvml_nvlink_pair(const struct nvml_gpu *a, const struct nvml_gpu *b)
{
	struct nvml_links la, lb;
	unsigned unnamed = 0, direct;

	if (a->handle_rc || b->handle_rc)
		return -1;
	direct = links_to(a, b, &unnamed);
	if (direct)
		return (int)direct;
	nvml_links_sum(a, &la);
	nvml_links_sum(b, &lb);
	/* links that were not read (not asked, GPU lost, ...) prove nothing either way */
	if ((la.rc && la.rc != NVML_ERROR_NOT_SUPPORTED) ||
	    (lb.rc && lb.rc != NVML_ERROR_NOT_SUPPORTED))
		return -1;
	if (la.to_switch && lb.to_switch && !other_clique(a, b))
		return (int)(la.to_switch < lb.to_switch ? la.to_switch : lb.to_switch);
	(void)links_to(b, a, &unnamed);
	return unnamed ? -1 : 0;
}

void nvml_facts_done(struct nvml_facts *f)
{
	free(f->gpus);
	*f = (struct nvml_facts){};
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The test tier's libnvidia-ml.so.1: answers the NVML calls hostprep declares
 * (src/nvml/nvml-api.h) from a description file in the record format
 * (tests/device/nvml-probe prints it on a real GPU host; tests/fake/real/h100-firecracker/
 * nvml.txt is one), named by $HOSTPREP_NVML_SHIM. Every answer a description gives is
 * returned as NVML would, errors included (NOT_SUPPORTED, GPU_IS_LOST, ...); a question it
 * does not answer is FUNCTION_NOT_FOUND, as from a library too old to have the call. The
 * line "nvmlInit_v2 hang" makes nvmlInit_v2 never return (a wedged GPU).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvml/nvml-api.h"
#include "nvml/nvml.h"

#define EXPORT		 __attribute__((visibility("default")))
#define PROTO(sym, args) EXPORT int sym args;
NVML_CALLS(PROTO)

static struct nvml_facts facts;
static int init_rc = NVML_ERROR_UNINITIALIZED;

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t size = 0;

	if (!f)
		return NULL;
	if (getdelim(&buf, &size, '\0', f) < 0) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static const struct nvml_gpu *dev(nvml_device_t d)
{
	size_t i = (size_t)(uintptr_t)d;

	return i >= 1 && i <= facts.n ? &facts.gpus[i - 1] : NULL;
}

EXPORT int nvmlInit_v2(void)
{
	const char *path = getenv("HOSTPREP_NVML_SHIM");
	char *text = path ? slurp(path) : NULL;
	char buf[16];

	if (!text)
		return NVML_ERROR_DRIVER_NOT_LOADED;
	if (strstr(text, "nvmlInit_v2 hang"))
		for (;;)
			pause();
	nvml_facts_done(&facts);
	if (nvml_parse(text, &facts) < 0)
		return NVML_ERROR_UNKNOWN;
	free(text);
	init_rc = NVML_SUCCESS;
	if (!facts.loaded) /* "nvmlInit_v2 N": that error, by its number */
		for (int rc = 1; rc < 1000; rc++)
			if (strstr(facts.why, nvml_rc_name(rc, buf)) ==
			    facts.why + strlen("nvmlInit_v2: "))
				return init_rc = rc;
	return NVML_SUCCESS;
}

EXPORT int nvmlShutdown(void)
{
	return NVML_SUCCESS;
}

EXPORT int nvmlSystemGetDriverVersion(char *v, unsigned int n)
{
	if (init_rc)
		return NVML_ERROR_UNINITIALIZED;
	if (!facts.driver[0])
		return NVML_ERROR_NOT_SUPPORTED;
	snprintf(v, n, "%s", facts.driver);
	return NVML_SUCCESS;
}

EXPORT int nvmlDeviceGetCount_v2(unsigned int *count)
{
	*count = (unsigned)facts.n;
	return init_rc ? NVML_ERROR_UNINITIALIZED : NVML_SUCCESS;
}

EXPORT int nvmlDeviceGetHandleByIndex_v2(unsigned int i, nvml_device_t *d)
{
	if (init_rc || i >= facts.n)
		return init_rc ? NVML_ERROR_UNINITIALIZED : NVML_ERROR_INVALID_ARGUMENT;
	*d = (nvml_device_t)(uintptr_t)(i + 1);
	return facts.gpus[i].handle_rc;
}

EXPORT int nvmlDeviceGetPciInfo_v3(nvml_device_t d, struct nvml_pci_info *pci)
{
	const struct nvml_gpu *g = dev(d);

	if (!g)
		return NVML_ERROR_INVALID_ARGUMENT;
	snprintf(pci->bus_id, sizeof(pci->bus_id), "0000%s", g->bus); /* NVML's 8-digit domain */
	return NVML_SUCCESS;
}

/* the answer to q, values copied out by the caller; its rc */
static const struct nvml_answer *ans(nvml_device_t d, enum nvml_q q)
{
	const struct nvml_gpu *g = dev(d);

	return g ? &g->q[q] : NULL;
}

#define STR_CALL(name, q)                                           \
	EXPORT int name(nvml_device_t d, char *buf, unsigned int n) \
	{                                                           \
		const struct nvml_answer *a = ans(d, q);            \
		if (!a)                                             \
			return NVML_ERROR_INVALID_ARGUMENT;         \
		if (!a->rc)                                         \
			snprintf(buf, n, "%s", a->s);               \
		return a->rc;                                       \
	}
STR_CALL(nvmlDeviceGetName, NVQ_NAME)
STR_CALL(nvmlDeviceGetUUID, NVQ_UUID)
STR_CALL(nvmlDeviceGetVbiosVersion, NVQ_VBIOS)

EXPORT int nvmlDeviceGetPersistenceMode(nvml_device_t d, int *mode)
{
	const struct nvml_answer *a = ans(d, NVQ_PERSISTENCE);

	if (!a)
		return NVML_ERROR_INVALID_ARGUMENT;
	*mode = (int)a->v[0];
	return a->rc;
}

EXPORT int nvmlDeviceGetMigMode(nvml_device_t d, unsigned int *cur, unsigned int *pend)
{
	const struct nvml_answer *a = ans(d, NVQ_MIG);

	if (!a)
		return NVML_ERROR_INVALID_ARGUMENT;
	*cur = (unsigned)a->v[0];
	*pend = (unsigned)a->v[1];
	return a->rc;
}

EXPORT int nvmlDeviceGetEccMode(nvml_device_t d, int *cur, int *pend)
{
	const struct nvml_answer *a = ans(d, NVQ_ECC_MODE);

	if (!a)
		return NVML_ERROR_INVALID_ARGUMENT;
	*cur = (int)a->v[0];
	*pend = (int)a->v[1];
	return a->rc;
}

EXPORT int nvmlDeviceGetTotalEccErrors(nvml_device_t d, int type, int counter,
				       unsigned long long *n)
{
	const struct nvml_answer *a = ans(d, NVQ_ECC_UNC_VOL);

	if (!a)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (type != NVML_MEMORY_ERROR_TYPE_UNCORRECTED || counter != NVML_VOLATILE_ECC)
		return NVML_ERROR_NOT_SUPPORTED; /* the shim knows only what hostprep asks */
	*n = a->v[0];
	return a->rc;
}

EXPORT int nvmlDeviceGetRetiredPagesPendingStatus(nvml_device_t d, int *pending)
{
	const struct nvml_answer *a = ans(d, NVQ_RETIRED_PENDING);

	if (!a)
		return NVML_ERROR_INVALID_ARGUMENT;
	*pending = (int)a->v[0];
	return a->rc;
}

EXPORT int nvmlDeviceGetRemappedRows(nvml_device_t d, unsigned int *c, unsigned int *u,
				     unsigned int *p, unsigned int *f)
{
	const struct nvml_answer *a = ans(d, NVQ_REMAP);

	if (!a)
		return NVML_ERROR_INVALID_ARGUMENT;
	*c = (unsigned)a->v[0];
	*u = (unsigned)a->v[1];
	*p = (unsigned)a->v[2];
	*f = (unsigned)a->v[3];
	return a->rc;
}

EXPORT int nvmlDeviceGetGpuFabricInfo(nvml_device_t d, struct nvml_fabric_info *info)
{
	const struct nvml_answer *a = ans(d, NVQ_FABRIC);

	if (!a)
		return NVML_ERROR_INVALID_ARGUMENT;
	info->state = (unsigned char)a->v[0];
	info->status = (int)a->v[1];
	info->clique_id = (unsigned)a->v[2];
	return a->rc;
}

/*
 * A GPU's link l as the description gives it. A link the description does not give is
 * past the GPU's last one (INVALID_ARGUMENT) when it gives some link of that GPU, else
 * the question is not answered (FUNCTION_NOT_FOUND), as for every other call.
 */
static const struct nvml_link *link_of(nvml_device_t d, unsigned int l, int *rc)
{
	const struct nvml_gpu *g = dev(d);

	*rc = NVML_ERROR_INVALID_ARGUMENT;
	if (!g || l >= NVML_LINKS_MAX)
		return NULL;
	if (g->link[l].rc != NVML_ERROR_FUNCTION_NOT_FOUND)
		return &g->link[l];
	*rc = NVML_ERROR_FUNCTION_NOT_FOUND;
	for (unsigned k = 0; k < NVML_LINKS_MAX; k++)
		if (g->link[k].rc != NVML_ERROR_FUNCTION_NOT_FOUND)
			*rc = NVML_ERROR_INVALID_ARGUMENT;
	return NULL;
}

EXPORT int nvmlDeviceGetNvLinkState(nvml_device_t d, unsigned int l, int *active)
{
	int rc;
	const struct nvml_link *k = link_of(d, l, &rc);

	if (!k)
		return rc;
	*active = k->active;
	return k->rc;
}

EXPORT int nvmlDeviceGetNvLinkRemoteDeviceType(nvml_device_t d, unsigned int l, int *type)
{
	int rc;
	const struct nvml_link *k = link_of(d, l, &rc);

	if (!k)
		return rc;
	*type = (int)k->type;
	return k->type_rc;
}

EXPORT int nvmlDeviceGetNvLinkRemotePciInfo_v2(nvml_device_t d, unsigned int l,
					       struct nvml_pci_info *pci)
{
	int rc;
	const struct nvml_link *k = link_of(d, l, &rc);

	if (!k)
		return rc;
	if (!k->remote_rc) /* NVML's 8-digit domain */
		snprintf(pci->bus_id, sizeof(pci->bus_id), "0000%s", k->remote);
	return k->remote_rc;
}

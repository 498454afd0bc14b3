/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/*
 * What NVML answered about the host's GPUs, one answer per question and GPU: from the
 * live libnvidia-ml.so.1 (nvml_read_live) or from a recorded description (nvml_parse:
 * the lines tests/device/nvml-probe prints, `[gpuN ]CALL RC [VALUE...]`). The judgement
 * (gpu-check.c) reads only this, so both sources are judged alike and the test tier's
 * shim and the records exercise every answer NVML can give.
 */
enum nvml_q {
	NVQ_NAME,
	NVQ_UUID,
	NVQ_VBIOS,
	NVQ_PERSISTENCE,     /* v[0] */
	NVQ_MIG,	     /* v[0] current, v[1] pending */
	NVQ_ECC_MODE,	     /* v[0] current, v[1] pending */
	NVQ_ECC_UNC_VOL,     /* v[0] uncorrected, volatile (since the driver loaded) */
	NVQ_RETIRED_PENDING, /* v[0] */
	NVQ_REMAP,	     /* v[0] corrected, v[1] uncorrected, v[2] pending, v[3] failure */
	NVQ_FABRIC,	     /* v[0] state, v[1] status, v[2] clique */
	_NVQ_MAX,
};

#define NVML_ANSWER_STR 96

struct nvml_answer {
	int rc; /* an nvmlReturn_t; NVML_ERROR_FUNCTION_NOT_FOUND when not asked */
	unsigned long long v[4];
	char s[NVML_ANSWER_STR];
};

/* NVML_NVLINK_MAX_LINKS of nvml-api.h (4.18 "NvLink Methods"): Hopper and Blackwell have 18 */
#define NVML_LINKS_MAX 18

/*
 * One NVLink of a GPU: nvmlDeviceGetNvLinkState, and for an active link where its far
 * end is (nvmlDeviceGetNvLinkRemoteDeviceType, nvmlDeviceGetNvLinkRemotePciInfo_v2).
 * Each rc is FUNCTION_NOT_FOUND when the question was not asked (or not recorded).
 */
struct nvml_link {
	int rc;
	bool active;
	int type_rc;
	unsigned type; /* NVML_NVLINK_DEVICE_TYPE_* */
	int remote_rc;
	char remote[16]; /* the far end's address as sysfs names it */
};

struct nvml_gpu {
	char bus[16]; /* 0000:00:06.0, as sysfs names it */
	int handle_rc;
	struct nvml_answer q[_NVQ_MAX];
	struct nvml_link link[NVML_LINKS_MAX];
};

/*
 * A GPU's NVLinks summed up. rc: 0 when NVML reported at least one link; else the answer
 * that says why not: NOT_SUPPORTED (the GPU has no NVLink), FUNCTION_NOT_FOUND (not asked,
 * or a library without the call), or the error a link's question got (GPU_IS_LOST, ...),
 * which wins over the links that answered: a GPU whose links cannot all be read is not
 * judged on the ones that could.
 */
struct nvml_links {
	int rc;
	unsigned n;	    /* links the GPU has (state answered) */
	unsigned active;    /* of them active */
	unsigned to_switch; /* active links whose far end is an NVSwitch */
	unsigned down;	    /* bit per link reported inactive */
};
void nvml_links_sum(const struct nvml_gpu *g, struct nvml_links *ret);
/*
 * The NVLinks that join GPUs a and b, as nvidia-smi topo -m counts them (NV#): the active
 * links of a whose far end is b, else, when both reach NVSwitches, the fewer of their
 * switch links (an NVSwitch fabric joins every GPU to every other; a pair whose fabric
 * info names two cliques is not joined). 0: none; -1: unknown (an active link whose far
 * end NVML did not name).
 */
int nvml_nvlink_pair(const struct nvml_gpu *a, const struct nvml_gpu *b);

struct nvml_facts {
	bool loaded;	    /* NVML answered nvmlInit_v2 (live) or a record was read */
	const char *source; /* "NVML" or the record's path; static or owned by the caller */
	char why[160];	    /* !loaded: why not (no library, init failed: ...) */
	char driver[80];    /* nvmlSystemGetDriverVersion, "" if not answered */
	size_t n;
	struct nvml_gpu *gpus;
};

/* The name of an nvmlReturn_t ("NOT_SUPPORTED", "GPU_IS_LOST", ..., else "error N"). */
const char *nvml_rc_name(int rc, char buf[static 16]);
/* Parse a recorded description (text, NUL-terminated) into f (zeroed first). -ENOMEM. */
int nvml_parse(const char *text, struct nvml_facts *f);
/*
 * Ask the live library (in a child, with a deadline). f->loaded false with f->why when
 * unusable. *ret_text: the answers as recorded (malloc'd; NULL when there were none).
 */
int nvml_read_live(struct nvml_facts *f, char **ret_text);
const struct nvml_gpu *nvml_find(const struct nvml_facts *f, const char *bus);
void nvml_facts_done(struct nvml_facts *f);

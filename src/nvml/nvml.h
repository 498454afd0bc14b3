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

struct nvml_gpu {
	char bus[16]; /* 0000:00:06.0, as sysfs names it */
	int handle_rc;
	struct nvml_answer q[_NVQ_MAX];
};

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

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live libnvidia-ml.so.1, asked in a child process (nvml.c says why): the child
 * resolves each declared call by its versioned name (a call an older library lacks is
 * answered FUNCTION_NOT_FOUND), asks every question of every GPU once and writes the
 * answers in the record format; the parent reads them with a deadline and parses them.
 * Nothing here creates a CUDA context or submits GPU work; nvmlInit_v2 only.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/log.h"
#include "nvml/nvml-api.h"
#include "nvml/nvml.h"

#define NVML_SONAME	"libnvidia-ml.so.1"
#define NVML_TIMEOUT_MS 10000
#define NVML_OUT_MAX	(256 << 10)

#define NVML_PTR(sym, args) static int(*p_##sym) args;
NVML_CALLS(NVML_PTR)

#define ASK(sym, ...) (p_##sym ? p_##sym(__VA_ARGS__) : NVML_ERROR_FUNCTION_NOT_FOUND)

static int nvml_resolve(FILE *out)
{
	void *lib = dlopen(NVML_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!lib) {
		fprintf(out, "dlopen %d %s\n", NVML_ERROR_LIBRARY_NOT_FOUND, dlerror());
		return -ENOENT;
	}
#define NVML_SYM(sym, args) p_##sym = (int(*) args)dlsym(lib, #sym);
	NVML_CALLS(NVML_SYM)
	return 0;
}

static void ask_str(FILE *out, unsigned i, const char *call, int rc, const char *s)
{
	fprintf(out, "gpu%u %s %d%s%s\n", i, call, rc, rc ? "" : " ", rc ? "" : s);
}

static void ask_pairs(FILE *out, unsigned i, nvml_device_t d)
{
	unsigned int a = 0, b = 0, c = 0, e = 0;
	int x = 0, y = 0, rc;

	rc = ASK(nvmlDeviceGetPersistenceMode, d, &x);
	fprintf(out, "gpu%u nvmlDeviceGetPersistenceMode %d %d\n", i, rc, x);
	rc = ASK(nvmlDeviceGetMigMode, d, &a, &b);
	fprintf(out, "gpu%u nvmlDeviceGetMigMode %d %u %u\n", i, rc, a, b);
	rc = ASK(nvmlDeviceGetEccMode, d, &x, &y);
	fprintf(out, "gpu%u nvmlDeviceGetEccMode %d %d %d\n", i, rc, x, y);
	rc = ASK(nvmlDeviceGetRetiredPagesPendingStatus, d, &x);
	fprintf(out, "gpu%u nvmlDeviceGetRetiredPagesPendingStatus %d %d\n", i, rc, x);
	rc = ASK(nvmlDeviceGetRemappedRows, d, &a, &b, &c, &e);
	fprintf(out, "gpu%u nvmlDeviceGetRemappedRows %d %u %u %u %u\n", i, rc, a, b, c, e);
}

/*
 * Each NVLink: its state, and for an active one where it goes. A link past the GPU's last
 * (NOT_SUPPORTED, INVALID_ARGUMENT) is not printed, but link 0's answer always is: it
 * says whether the GPU has NVLink at all.
 */
static void ask_links(FILE *out, unsigned i, nvml_device_t d)
{
	for (unsigned l = 0; l < NVML_NVLINK_MAX_LINKS; l++) {
		struct nvml_pci_info pci = {};
		int active = 0, type = 0;
		int rc = ASK(nvmlDeviceGetNvLinkState, d, l, &active);

		if (rc == NVML_ERROR_FUNCTION_NOT_FOUND && l == 0)
			break; /* a library without NVLink calls: nothing recorded, nothing judged
				*/
		if (l > 0 && (rc == NVML_ERROR_NOT_SUPPORTED || rc == NVML_ERROR_INVALID_ARGUMENT))
			continue;
		fprintf(out, "gpu%u nvmlDeviceGetNvLinkState %d link=%u %d\n", i, rc, l, active);
		if (rc || !active)
			continue;
		rc = ASK(nvmlDeviceGetNvLinkRemoteDeviceType, d, l, &type);
		fprintf(out, "gpu%u nvmlDeviceGetNvLinkRemoteDeviceType %d link=%u %d\n", i, rc, l,
			type);
		rc = ASK(nvmlDeviceGetNvLinkRemotePciInfo_v2, d, l, &pci);
		fprintf(out, "gpu%u nvmlDeviceGetNvLinkRemotePciInfo_v2 %d link=%u %s\n", i, rc, l,
			rc ? "" : pci.bus_id);
	}
}

static void ask_gpu(FILE *out, unsigned i, nvml_device_t d)
{
	struct nvml_pci_info pci = {};
	struct nvml_fabric_info fab = {};
	char buf[NVML_ANSWER_STR];
	unsigned long long n = 0;
	int rc;

	rc = ASK(nvmlDeviceGetPciInfo_v3, d, &pci);
	ask_str(out, i, "nvmlDeviceGetPciInfo_v3", rc, pci.bus_id);
	rc = ASK(nvmlDeviceGetName, d, buf, sizeof(buf));
	ask_str(out, i, "nvmlDeviceGetName", rc, buf);
	rc = ASK(nvmlDeviceGetUUID, d, buf, sizeof(buf));
	ask_str(out, i, "nvmlDeviceGetUUID", rc, buf);
	rc = ASK(nvmlDeviceGetVbiosVersion, d, buf, sizeof(buf));
	ask_str(out, i, "nvmlDeviceGetVbiosVersion", rc, buf);
	ask_pairs(out, i, d);
	rc = ASK(nvmlDeviceGetTotalEccErrors, d, NVML_MEMORY_ERROR_TYPE_UNCORRECTED,
		 NVML_VOLATILE_ECC, &n);
	fprintf(out, "gpu%u nvmlDeviceGetTotalEccErrors %d uncorrected volatile %llu\n", i, rc, n);
	rc = ASK(nvmlDeviceGetGpuFabricInfo, d, &fab);
	fprintf(out, "gpu%u nvmlDeviceGetGpuFabricInfo %d state=%u status=%d clique=%u\n", i, rc,
		fab.state, fab.status, fab.clique_id);
	ask_links(out, i, d);
}

/* The child's whole work: answers on out, in the record format. */
static void nvml_ask_all(FILE *out)
{
	char buf[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE];
	unsigned int count = 0;
	int rc;

	if (nvml_resolve(out) < 0)
		return;
	rc = ASK(nvmlInit_v2);
	fprintf(out, "nvmlInit_v2 %d\n", rc);
	if (rc)
		return;
	rc = ASK(nvmlSystemGetDriverVersion, buf, sizeof(buf));
	fprintf(out, "nvmlSystemGetDriverVersion %d%s%s\n", rc, rc ? "" : " ", rc ? "" : buf);
	rc = ASK(nvmlDeviceGetCount_v2, &count);
	fprintf(out, "nvmlDeviceGetCount_v2 %d %u\n", rc, count);
	for (unsigned i = 0; !rc && i < count && i < 256; i++) {
		nvml_device_t d = NULL;
		int h = ASK(nvmlDeviceGetHandleByIndex_v2, i, &d);

		fprintf(out, "gpu%u nvmlDeviceGetHandleByIndex_v2 %d\n", i, h);
		if (!h)
			ask_gpu(out, i, d);
	}
	(void)ASK(nvmlShutdown);
}

static _Noreturn void nvml_child(int fd)
{
	FILE *out;

	(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
	out = fdopen(fd, "w");
	if (!out)
		_exit(1);
	nvml_ask_all(out);
	_exit(fclose(out) == 0 ? 0 : 1);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* What the child wrote, until EOF, the cap or the deadline (-ETIMEDOUT). */
static int drain(int fd, char **ret)
{
	int64_t deadline = now_ms() + NVML_TIMEOUT_MS;
	_cleanup_(freep) char *buf = malloc(NVML_OUT_MAX + 1);
	size_t size = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int64_t left = deadline - now_ms();
		ssize_t n;

		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&p, 1, (int)left) <= 0)
			continue;
		n = read(fd, buf + size, NVML_OUT_MAX - size);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0 || (size += (size_t)n) == NVML_OUT_MAX)
			break;
	}
	buf[size] = '\0';
	*ret = TAKE_PTR(buf);
	return 0;
}

static void reap(pid_t pid, bool kill_it)
{
	if (kill_it)
		(void)kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

int nvml_read_live(struct nvml_facts *f, char **ret_text)
{
	_cleanup_(freep) char *text = NULL;
	int p[2], r;
	pid_t pid;

	*f = (struct nvml_facts){ .source = "NVML" };
	*ret_text = NULL;
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		r = -errno;
		close(p[0]);
		close(p[1]);
		return r;
	}
	if (pid == 0) {
		close(p[0]);
		nvml_child(p[1]);
	}
	close(p[1]);
	r = drain(p[0], &text);
	close(p[0]);
	reap(pid, r < 0);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		snprintf(f->why, sizeof(f->why), "NVML did not answer within %d s (%s)",
			 NVML_TIMEOUT_MS / 1000, strerror(-r));
		return 0;
	}
	r = nvml_parse(text, f);
	f->source = "NVML";
	if (r >= 0 && !f->loaded && !f->why[0])
		snprintf(f->why, sizeof(f->why), "NVML gave no answer");
	if (r >= 0)
		*ret_text = TAKE_PTR(text);
	return r;
}

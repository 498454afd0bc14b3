// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nvml-probe: ask the real libnvidia-ml.so.1 every call hostprep declares
 * (src/nvml/nvml-api.h) and print each answer as one line of the NVML
 * description format the test tier's shim reads back:
 *
 *	[gpuN ]CALL RC [VALUE...]
 *
 * RC is the nvmlReturn_t; VALUE only when RC is 0. Run on a real GPU host
 * (tests/device/capture.sh); its output is a fixture's provenance, and
 * compared with nvidia-smi -q and pynvml there.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "nvml/nvml-api.h"

#define DECLARE(sym, args) static int(*p_##sym) args;
NVML_CALLS(DECLARE)

static void *lib;

static int resolve(void)
{
	lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		printf("dlopen 12 %s\n", dlerror());
		return -1;
	}
#define RESOLVE(sym, args)                       \
	p_##sym = (int(*) args)dlsym(lib, #sym); \
	if (!p_##sym)                            \
		printf("dlsym 13 %s\n", #sym);
	NVML_CALLS(RESOLVE)
	return 0;
}

static double ms_since(const struct timespec *a)
{
	struct timespec b;

	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a->tv_sec) * 1e3 + (b.tv_nsec - a->tv_nsec) / 1e6;
}

#define CALL(pre, sym, ...) (p_##sym ? p_##sym(__VA_ARGS__) : NVML_ERROR_FUNCTION_NOT_FOUND)

static void str_call(const char *pre, const char *name, int rc, const char *buf)
{
	printf("%s%s %d%s%s\n", pre, name, rc, rc ? "" : " ", rc ? "" : buf);
}

static void probe_gpu(unsigned int i, nvml_device_t d)
{
	char pre[16], buf[128];
	struct nvml_pci_info pci;
	struct nvml_fabric_info fab;
	unsigned int a, b, c, e;
	unsigned long long n;
	int rc, x, y;

	snprintf(pre, sizeof(pre), "gpu%u ", i);
	memset(&pci, 0, sizeof(pci));
	rc = CALL(pre, nvmlDeviceGetPciInfo_v3, d, &pci);
	printf("%snvmlDeviceGetPciInfo_v3 %d", pre, rc);
	if (!rc)
		printf(" %s 0x%08x 0x%08x", pci.bus_id, pci.pci_device_id, pci.pci_subsystem_id);
	printf("\n");
	rc = CALL(pre, nvmlDeviceGetName, d, buf, sizeof(buf));
	str_call(pre, "nvmlDeviceGetName", rc, buf);
	rc = CALL(pre, nvmlDeviceGetUUID, d, buf, sizeof(buf));
	str_call(pre, "nvmlDeviceGetUUID", rc, buf);
	rc = CALL(pre, nvmlDeviceGetVbiosVersion, d, buf, sizeof(buf));
	str_call(pre, "nvmlDeviceGetVbiosVersion", rc, buf);
	rc = CALL(pre, nvmlDeviceGetPersistenceMode, d, &x);
	printf("%snvmlDeviceGetPersistenceMode %d %d\n", pre, rc, rc ? -1 : x);
	rc = CALL(pre, nvmlDeviceGetMigMode, d, &a, &b);
	printf("%snvmlDeviceGetMigMode %d %d %d\n", pre, rc, rc ? -1 : (int)a, rc ? -1 : (int)b);
	rc = CALL(pre, nvmlDeviceGetEccMode, d, &x, &y);
	printf("%snvmlDeviceGetEccMode %d %d %d\n", pre, rc, rc ? -1 : x, rc ? -1 : y);
	for (int t = 0; t < 2; t++) {
		rc = CALL(pre, nvmlDeviceGetTotalEccErrors, d, NVML_MEMORY_ERROR_TYPE_UNCORRECTED,
			  t, &n);
		printf("%snvmlDeviceGetTotalEccErrors %d uncorrected %s %llu\n", pre, rc,
		       t ? "aggregate" : "volatile", rc ? 0ULL : n);
	}
	rc = CALL(pre, nvmlDeviceGetRetiredPagesPendingStatus, d, &x);
	printf("%snvmlDeviceGetRetiredPagesPendingStatus %d %d\n", pre, rc, rc ? -1 : x);
	rc = CALL(pre, nvmlDeviceGetRemappedRows, d, &a, &b, &c, &e);
	printf("%snvmlDeviceGetRemappedRows %d", pre, rc);
	if (!rc)
		printf(" %u %u %u %u", a, b, c, e);
	printf("\n");
	memset(&fab, 0, sizeof(fab));
	rc = CALL(pre, nvmlDeviceGetGpuFabricInfo, d, &fab);
	printf("%snvmlDeviceGetGpuFabricInfo %d", pre, rc);
	if (!rc)
		printf(" state=%u status=%d clique=%u", fab.state, fab.status, fab.clique_id);
	printf("\n");
	for (unsigned int l = 0; l < NVML_NVLINK_MAX_LINKS; l++) {
		rc = CALL(pre, nvmlDeviceGetNvLinkState, d, l, &x);
		printf("%snvmlDeviceGetNvLinkState %d link=%u %d\n", pre, rc, l, rc ? -1 : x);
	}
}

int main(void)
{
	struct timespec t0;
	char buf[128];
	unsigned int count = 0;
	nvml_device_t d;
	int rc;

	if (resolve() < 0)
		return 1;
	for (int round = 0; round < 2; round++) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		rc = CALL("", nvmlInit_v2);
		printf("nvmlInit_v2 %d ms=%.1f round=%d\n", rc, ms_since(&t0), round);
		if (rc)
			return 1;
		if (round == 0)
			CALL("", nvmlShutdown);
	}
	rc = CALL("", nvmlSystemGetDriverVersion, buf, sizeof(buf));
	str_call("", "nvmlSystemGetDriverVersion", rc, buf);
	rc = CALL("", nvmlSystemGetNVMLVersion, buf, sizeof(buf));
	str_call("", "nvmlSystemGetNVMLVersion", rc, buf);
	rc = CALL("", nvmlDeviceGetCount_v2, &count);
	printf("nvmlDeviceGetCount_v2 %d %u\n", rc, rc ? 0 : count);
	for (unsigned int i = 0; i < count; i++) {
		rc = CALL("", nvmlDeviceGetHandleByIndex_v2, i, &d);
		printf("gpu%u nvmlDeviceGetHandleByIndex_v2 %d\n", i, rc);
		if (!rc)
			probe_gpu(i, d);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CALL("", nvmlShutdown);
	printf("nvmlShutdown 0 ms=%.1f\n", ms_since(&t0));
	return 0;
}

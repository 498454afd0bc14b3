/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The part of NVML hostprep calls, declared here because Debian's main
 * archive ships no nvml.h. libnvidia-ml.so.1 is dlopen'd (like libkmod and
 * libibverbs): a host without the NVIDIA driver runs without it.
 *
 * Every name, type and value below is NVIDIA's, from the NVML API Reference
 * (https://docs.nvidia.com/deploy/nvml-api/), the section named beside each
 * one. Calls are resolved by their versioned symbol names (nvmlInit_v2,
 * nvmlDeviceGetCount_v2, ...), which is what nvml.h's macros map the plain
 * names to; a call the installed library lacks is NVML_ERROR_FUNCTION_NOT_FOUND
 * to the caller, never a crash.
 */
#ifndef HOSTPREP_NVML_NVML_API_H
#define HOSTPREP_NVML_NVML_API_H

/* 4.1 "Device Structs": an opaque handle */
typedef struct nvml_device_st *nvml_device_t;

/* 4.15 "Error reporting": nvmlReturn_t (values are ABI) */
enum nvml_return {
	NVML_SUCCESS = 0,
	NVML_ERROR_UNINITIALIZED = 1,
	NVML_ERROR_INVALID_ARGUMENT = 2,
	NVML_ERROR_NOT_SUPPORTED = 3,
	NVML_ERROR_NO_PERMISSION = 4,
	NVML_ERROR_NOT_FOUND = 6,
	NVML_ERROR_INSUFFICIENT_SIZE = 7,
	NVML_ERROR_DRIVER_NOT_LOADED = 9,
	NVML_ERROR_TIMEOUT = 10,
	NVML_ERROR_LIBRARY_NOT_FOUND = 12,
	NVML_ERROR_FUNCTION_NOT_FOUND = 13,
	NVML_ERROR_CORRUPTED_INFOROM = 14,
	NVML_ERROR_GPU_IS_LOST = 15,
	NVML_ERROR_RESET_REQUIRED = 16,
	NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18,
	NVML_ERROR_NO_DATA = 21,
	NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25,
	NVML_ERROR_NOT_READY = 27,
	NVML_ERROR_UNKNOWN = 999,
};

/* 4.1 "Device Enums": nvmlEnableState_t, nvmlMemoryErrorType_t, nvmlEccCounterType_t */
enum { NVML_FEATURE_DISABLED = 0, NVML_FEATURE_ENABLED = 1 };
enum { NVML_MEMORY_ERROR_TYPE_CORRECTED = 0, NVML_MEMORY_ERROR_TYPE_UNCORRECTED = 1 };
enum { NVML_VOLATILE_ECC = 0, NVML_AGGREGATE_ECC = 1 };

/* 4.17 "Constants": buffer sizes */
#define NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE 80
#define NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE   80
#define NVML_DEVICE_NAME_V2_BUFFER_SIZE	       96
#define NVML_DEVICE_UUID_V2_BUFFER_SIZE	       96
#define NVML_DEVICE_VBIOS_VERSION_BUFFER_SIZE  32
#define NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE     32
#define NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE  16
/* 4.18 "NvLink Methods": links per GPU (Hopper has 18, Blackwell 18) */
#define NVML_NVLINK_MAX_LINKS 18

/* 4.18 "NvLink Methods": nvmlIntNvLinkDeviceType_t, what a link's far end is */
enum {
	NVML_NVLINK_DEVICE_TYPE_GPU = 0x00,
	NVML_NVLINK_DEVICE_TYPE_IBMNPU = 0x01,
	NVML_NVLINK_DEVICE_TYPE_SWITCH = 0x02,
	NVML_NVLINK_DEVICE_TYPE_UNKNOWN = 0xff,
};

/* 4.1 "Device Structs": nvmlPciInfo_t, as filled by nvmlDeviceGetPciInfo_v3 */
struct nvml_pci_info {
	char bus_id_legacy[NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE];
	unsigned int domain;
	unsigned int bus;
	unsigned int device;
	unsigned int pci_device_id;
	unsigned int pci_subsystem_id;
	char bus_id[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE];
};

/* 4.1 "Device Structs": nvmlGpuFabricInfo_t (nvmlDeviceGetGpuFabricInfo, R525+) */
enum {
	NVML_GPU_FABRIC_STATE_NOT_SUPPORTED = 0,
	NVML_GPU_FABRIC_STATE_NOT_STARTED = 1,
	NVML_GPU_FABRIC_STATE_IN_PROGRESS = 2,
	NVML_GPU_FABRIC_STATE_COMPLETED = 3,
};
struct nvml_fabric_info {
	unsigned char cluster_uuid[16];
	int status; /* an nvmlReturn_t: read only when state is COMPLETED */
	unsigned int clique_id;
	unsigned char state;
};

/*
 * The calls, one line each: symbol, return, arguments. X(sym, args) is
 * expanded into function-pointer members by the loader. Sections:
 * 4.14 "Initialization and Cleanup", 4.16 "System Queries", 4.20 "Device
 * Queries", 4.20.x "ECC", "Page Retirement", "Row Remapping", 4.18 "NvLink
 * Methods", "Fabric".
 */
#define NVML_CALLS(X)                                                                            \
	X(nvmlInit_v2, (void))                                                                   \
	X(nvmlShutdown, (void))                                                                  \
	X(nvmlSystemGetDriverVersion, (char *version, unsigned int length))                      \
	X(nvmlSystemGetNVMLVersion, (char *version, unsigned int length))                        \
	X(nvmlDeviceGetCount_v2, (unsigned int *count))                                          \
	X(nvmlDeviceGetHandleByIndex_v2, (unsigned int index, nvml_device_t *device))            \
	X(nvmlDeviceGetHandleByPciBusId_v2, (const char *bus_id, nvml_device_t *device))         \
	X(nvmlDeviceGetPciInfo_v3, (nvml_device_t device, struct nvml_pci_info * pci))           \
	X(nvmlDeviceGetName, (nvml_device_t device, char *name, unsigned int length))            \
	X(nvmlDeviceGetUUID, (nvml_device_t device, char *uuid, unsigned int length))            \
	X(nvmlDeviceGetPersistenceMode, (nvml_device_t device, int *mode))                       \
	X(nvmlDeviceGetMigMode,                                                                  \
	  (nvml_device_t device, unsigned int *current, unsigned int *pending))                  \
	X(nvmlDeviceGetVbiosVersion, (nvml_device_t device, char *version, unsigned int length)) \
	X(nvmlDeviceGetEccMode, (nvml_device_t device, int *current, int *pending))              \
	X(nvmlDeviceGetTotalEccErrors,                                                           \
	  (nvml_device_t device, int error_type, int counter_type, unsigned long long *count))   \
	X(nvmlDeviceGetRetiredPagesPendingStatus, (nvml_device_t device, int *pending))          \
	X(nvmlDeviceGetRemappedRows,                                                             \
	  (nvml_device_t device, unsigned int *corrected, unsigned int *uncorrected,             \
	   unsigned int *pending, unsigned int *failure))                                        \
	X(nvmlDeviceGetGpuFabricInfo, (nvml_device_t device, struct nvml_fabric_info * info))    \
	X(nvmlDeviceGetNvLinkState, (nvml_device_t device, unsigned int link, int *active))      \
	X(nvmlDeviceGetNvLinkRemoteDeviceType,                                                   \
	  (nvml_device_t device, unsigned int link, int *type))                                  \
	X(nvmlDeviceGetNvLinkRemotePciInfo_v2,                                                   \
	  (nvml_device_t device, unsigned int link, struct nvml_pci_info *pci))

#endif

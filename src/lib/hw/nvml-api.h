/* nvml-api.h: the few NVML types and entry points the tool uses, declared
 * here so the build needs no NVML header (the library is dlopen()ed).
 * Layouts and values follow NVIDIA's nvml.h; tests/lib/fake-nvml.c
 * exports the same entry points from a fixture file. */
#ifndef SN_NVML_API_H
#define SN_NVML_API_H

typedef int nvmlReturn_t;
typedef struct nvmlDevice_st *nvmlDevice_t;
typedef struct nvmlEventSet_st *nvmlEventSet_t;

enum {
    NVML_SUCCESS = 0,
    NVML_ERROR_UNINITIALIZED = 1,
    NVML_ERROR_INVALID_ARGUMENT = 2,
    NVML_ERROR_NOT_SUPPORTED = 3,
    NVML_ERROR_NO_PERMISSION = 4,
    NVML_ERROR_NOT_FOUND = 6,
    NVML_ERROR_INSUFFICIENT_SIZE = 7,
    NVML_ERROR_DRIVER_NOT_LOADED = 9,
    NVML_ERROR_TIMEOUT = 10,
    NVML_ERROR_FUNCTION_NOT_FOUND = 13,
    NVML_ERROR_GPU_IS_LOST = 15,
    NVML_ERROR_RESET_REQUIRED = 16,
    NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18,
    NVML_ERROR_UNKNOWN = 999,
};

#define NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE 32
#define NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE 16
#define NVML_DEVICE_NAME_V2_BUFFER_SIZE 96
#define NVML_DEVICE_UUID_V2_BUFFER_SIZE 96
#define NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE 80
#define NVML_NVLINK_MAX_LINKS 18

typedef struct nvmlPciInfo_st {
    char busIdLegacy[NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE];
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId;
    unsigned int pciSubSystemId;
    char busId[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE]; /* "00000000:17:00.0" */
} nvmlPciInfo_t;

/* nvmlDeviceGetComputeRunningProcesses_v3 fills entries whose size
 * depends on the driver; nvml.c reads them by offset (read_processes). */

typedef struct nvmlProcessUtilizationSample_st {
    unsigned int pid;
    unsigned long long timeStamp; /* CPU time stamp, microseconds */
    unsigned int smUtil;
    unsigned int memUtil;
    unsigned int encUtil;
    unsigned int decUtil;
} nvmlProcessUtilizationSample_t;

typedef struct nvmlUtilization_st {
    unsigned int gpu;
    unsigned int memory;
} nvmlUtilization_t;

/* nvmlDeviceGetMemoryInfo (v1): bytes; used counts the driver's
 * reservation on recent drivers (nvml.h) */
typedef struct nvmlMemory_st {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
} nvmlMemory_t;

typedef struct nvmlEventData_st {
    nvmlDevice_t device;
    unsigned long long eventType;
    unsigned long long eventData; /* the XID for XID events */
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
} nvmlEventData_t;

/* enum values */
#define NVML_MEMORY_ERROR_TYPE_CORRECTED 0
#define NVML_MEMORY_ERROR_TYPE_UNCORRECTED 1
#define NVML_VOLATILE_ECC 0
#define NVML_AGGREGATE_ECC 1
#define NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS 0
#define NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR 1
#define NVML_FEATURE_DISABLED 0
#define NVML_FEATURE_ENABLED 1
#define NVML_CLOCK_GRAPHICS 0
#define NVML_CLOCK_SM 1
#define NVML_CLOCK_MEM 2
#define NVML_TEMPERATURE_GPU 0
#define NVML_TEMPERATURE_THRESHOLD_SHUTDOWN 0
#define NVML_TEMPERATURE_THRESHOLD_SLOWDOWN 1
#define NVML_NVLINK_ERROR_DL_REPLAY 0
#define NVML_NVLINK_ERROR_DL_RECOVERY 1
#define NVML_NVLINK_ERROR_DL_CRC_FLIT 2
#define NVML_NVLINK_ERROR_DL_CRC_DATA 3
#define NVML_PSTATE_UNKNOWN 32

#define nvmlEventTypeXidCriticalError 0x0000000000000008ULL

/* clock event ("throttle") reasons, nvml.h nvmlClocksEventReason* */
#define NVML_REASON_GPU_IDLE 0x1ULL
#define NVML_REASON_APP_CLOCKS 0x2ULL
#define NVML_REASON_SW_POWER_CAP 0x4ULL
#define NVML_REASON_HW_SLOWDOWN 0x8ULL
#define NVML_REASON_SYNC_BOOST 0x10ULL
#define NVML_REASON_SW_THERMAL 0x20ULL
#define NVML_REASON_HW_THERMAL 0x40ULL
#define NVML_REASON_HW_POWER_BRAKE 0x80ULL
#define NVML_REASON_DISPLAY_CLOCKS 0x100ULL

#endif

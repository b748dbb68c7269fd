/* nvml.c: NVML loaded with dlopen(), so that the build needs no driver and
 * a machine without one runs everything else. One loader for doctor, bench
 * and the node agent: each opens the library the user named (--nvml, or
 * the driver's by default), so the fake NVML of the tests stands in for
 * every one of them. */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/util.h"

#include "hw-int.h"

/* dlsym() returns an object pointer; POSIX guarantees it converts to a
 * function pointer, ISO C does not, so copy the bits. The first name found
 * wins: newer entry points are listed first. */
static void bind(void *lib, void *fnptr, const char *const *names)
{
    for (; *names; names++) {
        void *p = dlsym(lib, *names);
        if (p) {
            memcpy(fnptr, &p, sizeof(p));
            return;
        }
    }
}

#define BIND(n, member, ...)                                                   \
    do {                                                                       \
        static const char *const names_[] = {__VA_ARGS__, NULL};               \
        bind((n)->lib, &(n)->member, names_);                                  \
    } while (0)

static void bind_all(struct sn__hw_nvml *n)
{
    BIND(n, Init, "nvmlInit_v2", "nvmlInit");
    BIND(n, Shutdown, "nvmlShutdown");
    BIND(n, GetCount, "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount");
    BIND(n, GetHandle, "nvmlDeviceGetHandleByIndex_v2",
         "nvmlDeviceGetHandleByIndex");
    BIND(n, GetHandleByPci, "nvmlDeviceGetHandleByPciBusId_v2",
         "nvmlDeviceGetHandleByPciBusId");
    BIND(n, ErrorString, "nvmlErrorString");
    BIND(n, DriverVersion, "nvmlSystemGetDriverVersion");
    BIND(n, CudaDriverVersion, "nvmlSystemGetCudaDriverVersion_v2",
         "nvmlSystemGetCudaDriverVersion");
    BIND(n, Name, "nvmlDeviceGetName");
    BIND(n, Uuid, "nvmlDeviceGetUUID");
    BIND(n, Vbios, "nvmlDeviceGetVbiosVersion");
    BIND(n, PciInfo, "nvmlDeviceGetPciInfo_v3");
    BIND(n, Pstate, "nvmlDeviceGetPerformanceState");
    BIND(n, EccMode, "nvmlDeviceGetEccMode");
    BIND(n, EccTotal, "nvmlDeviceGetTotalEccErrors");
    BIND(n, RetiredPages, "nvmlDeviceGetRetiredPages");
    BIND(n, RetiredPending, "nvmlDeviceGetRetiredPagesPendingStatus");
    BIND(n, RemappedRows, "nvmlDeviceGetRemappedRows");
    BIND(n, Reasons, "nvmlDeviceGetCurrentClocksEventReasons",
         "nvmlDeviceGetCurrentClocksThrottleReasons");
    BIND(n, PowerLimit, "nvmlDeviceGetPowerManagementLimit");
    BIND(n, PowerEnforced, "nvmlDeviceGetEnforcedPowerLimit");
    BIND(n, PowerDefault, "nvmlDeviceGetPowerManagementDefaultLimit");
    BIND(n, PowerConstraints, "nvmlDeviceGetPowerManagementLimitConstraints");
    BIND(n, PowerUsage, "nvmlDeviceGetPowerUsage");
    BIND(n, Energy, "nvmlDeviceGetTotalEnergyConsumption");
    BIND(n, Clock, "nvmlDeviceGetClockInfo");
    BIND(n, MaxClock, "nvmlDeviceGetMaxClockInfo");
    BIND(n, Temperature, "nvmlDeviceGetTemperature");
    BIND(n, TempThreshold, "nvmlDeviceGetTemperatureThreshold");
    BIND(n, NvLinkState, "nvmlDeviceGetNvLinkState");
    BIND(n, NvLinkErrors, "nvmlDeviceGetNvLinkErrorCounter");
    BIND(n, Processes, "nvmlDeviceGetComputeRunningProcesses_v3");
    BIND(n, ProcessUtil, "nvmlDeviceGetProcessUtilization");
    BIND(n, Utilization, "nvmlDeviceGetUtilizationRates");
    BIND(n, EventCreate, "nvmlEventSetCreate");
    BIND(n, EventRegister, "nvmlDeviceRegisterEvents");
    BIND(n, EventWait, "nvmlEventSetWait_v2");
    BIND(n, EventFree, "nvmlEventSetFree");
    BIND(n, MemoryInfo, "nvmlDeviceGetMemoryInfo");
    BIND(n, PcieReplays, "nvmlDeviceGetPcieReplayCounter");
    /* the setters of clocks.c (root: NVML's Device Commands) */
    BIND(n, SetGpuLocked, "nvmlDeviceSetGpuLockedClocks");
    BIND(n, ResetGpuLocked, "nvmlDeviceResetGpuLockedClocks");
    BIND(n, SetMemLocked, "nvmlDeviceSetMemoryLockedClocks");
    BIND(n, ResetMemLocked, "nvmlDeviceResetMemoryLockedClocks");
    BIND(n, SupportedMem, "nvmlDeviceGetSupportedMemoryClocks");
    BIND(n, SupportedGfx, "nvmlDeviceGetSupportedGraphicsClocks");
    BIND(n, SetPowerLimit, "nvmlDeviceSetPowerManagementLimit");
}

const char *sn__hw_nvml_error(const struct sn__hw_nvml *n, nvmlReturn_t r,
                              char *buf, size_t size)
{
    const char *s = n && n->ErrorString ? n->ErrorString(r) : NULL;

    /* the library's words are the machine's: escaped like any other */
    if (s && *s)
        sn_str_clean(buf, size, s, 0);
    else
        snprintf(buf, size, "NVML error %d", r);
    return buf;
}

void sn__hw_bdf_from_nvml(const char *bus, char *out, size_t size)
{
    size_t len = strnlen(bus, NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE);
    const char *p = len > 12 ? bus + len - 12 : bus;

    snprintf(out, size, "%.12s", p);
    for (char *q = out; *q; q++)
        if (*q >= 'A' && *q <= 'F')
            *q = (char)(*q - 'A' + 'a');
}

struct sn__hw_nvml *sn__hw_nvml_open(const char *path, char *why,
                                     size_t why_size)
{
    struct sn__hw_nvml *n;
    nvmlReturn_t r;
    char e[160];

    if (!path || !*path) {
        snprintf(why, why_size, "NVML not loaded (turned off)");
        return NULL;
    }
    n = sn_xcalloc(1, sizeof(*n));
    n->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!n->lib) {
        const char *d = dlerror();
        snprintf(why, why_size, "NVML library %s not loaded: %s", path,
                 d ? d : "?");
        free(n);
        return NULL;
    }
    bind_all(n);
    if (!n->Init || !n->Shutdown || !n->GetCount || !n->GetHandle) {
        snprintf(why, why_size,
                 "%s lacks nvmlInit_v2/nvmlDeviceGetCount_v2: not an NVML "
                 "library",
                 path);
        goto fail;
    }
    r = n->Init();
    if (r != NVML_SUCCESS) {
        snprintf(why, why_size, "nvmlInit failed: %s",
                 sn__hw_nvml_error(n, r, e, sizeof(e)));
        goto fail;
    }
    return n;
fail:
    dlclose(n->lib);
    free(n);
    return NULL;
}

void sn__hw_nvml_close(struct sn__hw_nvml *n)
{
    if (!n)
        return;
    n->Shutdown();
    dlclose(n->lib);
    free(n);
}

int sn__hw_nvml_sample(const struct sn__hw_nvml *n, nvmlDevice_t dev,
                       struct sn__hw_gpu_sample *s)
{
    unsigned v;
    unsigned long long u;
    int got = 0;

    s->sm_clock_hz = s->mem_clock_hz = s->temp_c = NAN;
    s->power_w = s->energy_j = NAN;
    s->reasons = 0;
    s->reasons_read = false;
    if (n->Clock && n->Clock(dev, NVML_CLOCK_SM, &v) == NVML_SUCCESS) {
        s->sm_clock_hz = v * 1e6; /* MHz */
        got++;
    }
    if (n->Clock && n->Clock(dev, NVML_CLOCK_MEM, &v) == NVML_SUCCESS) {
        s->mem_clock_hz = v * 1e6;
        got++;
    }
    if (n->Temperature &&
        n->Temperature(dev, NVML_TEMPERATURE_GPU, &v) == NVML_SUCCESS) {
        s->temp_c = v;
        got++;
    }
    if (n->PowerUsage && n->PowerUsage(dev, &v) == NVML_SUCCESS) {
        s->power_w = v / 1e3; /* milliwatts */
        got++;
    }
    if (n->Energy && n->Energy(dev, &u) == NVML_SUCCESS) {
        s->energy_j = (double)u / 1e3; /* millijoules */
        got++;
    }
    if (n->Reasons && n->Reasons(dev, &u) == NVML_SUCCESS) {
        s->reasons = u;
        s->reasons_read = true;
        got++;
    }
    return got;
}

nvmlReturn_t sn__hw_nvml_ecc(const struct sn__hw_nvml *n, nvmlDevice_t dev,
                             int counter, unsigned long long *corrected,
                             unsigned long long *uncorrected)
{
    nvmlReturn_t r;

    if (!n->EccTotal)
        return NVML_ERROR_FUNCTION_NOT_FOUND;
    r = n->EccTotal(dev, NVML_MEMORY_ERROR_TYPE_CORRECTED, counter, corrected);
    if (r == NVML_SUCCESS)
        r = n->EccTotal(dev, NVML_MEMORY_ERROR_TYPE_UNCORRECTED, counter,
                        uncorrected);
    return r;
}

/* nvmlDeviceGetComputeRunningProcesses_v3 fills entries whose size the
 * driver decides, without a version bump: 24 bytes (nvmlProcessInfo_v2_t,
 * nvml.h of CUDA 11 and 12), 32 bytes with usedGpuCcProtectedMemory added
 * (the first R535 drivers: XuehaiPan/nvitop PR #79, gpuopenanalytics/pynvml
 * PR #48) and 16 bytes, the v1 layout (nvitop PR #226). A buffer sized for
 * 24-byte entries overflows under a 32-byte driver. Every layout starts
 * with pid (offset 0) and usedGpuMemory (offset 8), so the buffer is sized
 * for the largest, filled with a pattern, and the last byte the library
 * wrote gives the stride: each layout ends in a field whose top byte is
 * 0x00 or 0xff (memory in bytes, an instance id, 0xffffffff without MIG),
 * never the pattern. */
#define PROC_FILL 0xa5
#define PROC_MAX_STRIDE 32

/* The stride of count entries whose last written byte ends at end, or 0
 * when no known layout explains it. */
static size_t proc_stride(size_t end, unsigned count)
{
    static const size_t strides[] = {16, 24, 32};

    for (size_t i = 0; count && i < SN_ARRAY_LEN(strides); i++)
        if (end == (size_t)count * strides[i])
            return strides[i];
    return 0;
}

/* Read the compute processes into out (up to *count entries, the
 * capacity on entry). Returns NVML's answer; *stride is 0 when the
 * answer's layout is not one of the known ones. */
static nvmlReturn_t read_processes(const struct sn__hw_nvml *n,
                                   nvmlDevice_t dev, unsigned *count,
                                   struct sn__hw_gpu_proc *out, size_t *stride)
{
    size_t cap = (size_t)*count * PROC_MAX_STRIDE, end;
    unsigned char *buf = sn_xmalloc(cap);
    nvmlReturn_t r;

    memset(buf, PROC_FILL, cap);
    r = n->Processes(dev, count, buf);
    if (*count > cap / PROC_MAX_STRIDE)
        *count = (unsigned)(cap / PROC_MAX_STRIDE);
    for (end = cap; end > 0 && buf[end - 1] == PROC_FILL; end--)
        ;
    *stride = r == NVML_SUCCESS ? proc_stride(end, *count) : 0;
    for (unsigned i = 0; *stride && i < *count; i++) {
        uint32_t pid;
        uint64_t mem;
        memcpy(&pid, buf + i * *stride, sizeof(pid));
        memcpy(&mem, buf + i * *stride + 8, sizeof(mem));
        out[i].pid = pid;
        out[i].mem_bytes = mem;
    }
    free(buf);
    return r;
}

nvmlReturn_t sn__hw_nvml_processes(const struct sn__hw_nvml *n,
                                   nvmlDevice_t dev, unsigned max,
                                   struct sn__hw_gpu_proc **out,
                                   unsigned *count, size_t *stride)
{
    struct sn__hw_gpu_proc *procs;
    unsigned listed = 0;
    nvmlReturn_t r;

    *out = NULL;
    *count = 0;
    *stride = 0;
    if (!n->Processes)
        return NVML_ERROR_FUNCTION_NOT_FOUND;
    r = n->Processes(dev, &listed, NULL);
    if (r == NVML_SUCCESS && listed == 0)
        return r;
    if (r != NVML_SUCCESS && r != NVML_ERROR_INSUFFICIENT_SIZE)
        return r;
    if (max == 0)
        return NVML_ERROR_INSUFFICIENT_SIZE;
    /* room for processes that start between the two calls; the count is
     * the library's word, capped before it sizes anything */
    listed = listed < max && max - listed > 8 ? listed + 8 : max;
    procs = sn_xcalloc(listed, sizeof(*procs));
    r = read_processes(n, dev, &listed, procs, stride);
    *count = listed;
    if (r != NVML_SUCCESS || !*stride)
        free(procs);
    else
        *out = procs;
    return r;
}

void sn__hw_nvml_process_util(const struct sn__hw_nvml *n, nvmlDevice_t dev,
                              unsigned max,
                              nvmlProcessUtilizationSample_t **out,
                              unsigned *count)
{
    nvmlProcessUtilizationSample_t *samples;
    unsigned k = 0;

    *out = NULL;
    *count = 0;
    /* lastSeenTimeStamp 0: every sample the driver still holds */
    if (!n->ProcessUtil ||
        n->ProcessUtil(dev, NULL, &k, 0) != NVML_ERROR_INSUFFICIENT_SIZE ||
        k == 0 || max == 0)
        return;
    if (k > max)
        k = max;
    samples = sn_xcalloc(k, sizeof(*samples));
    if (n->ProcessUtil(dev, samples, &k, 0) != NVML_SUCCESS || k == 0) {
        free(samples);
        return;
    }
    *out = samples;
    *count = k > max ? max : k;
}

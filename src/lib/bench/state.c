/* state.c: the state of the host and the device around a test (CPU
 * frequency and governor, temperatures, accelerator clocks, power and
 * throttle reasons), read from /proc and /sys under a configurable root and
 * from NVML loaded with dlopen, so that an outlier can be explained. */
#include <dirent.h>
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bench-int.h"

/* /proc/cpuinfo of a large host: about 1.5 KiB a CPU */
#define CPUINFO_MAX ((size_t)16 << 20)

/* Read the first line of root/path into buf; false when unreadable. The
 * read never blocks and takes regular files only (a FIFO planted in an
 * --fsroot tree is not waited on). */
static bool read_line(const char *root, const char *path, char *buf,
                      size_t size)
{
    char full[512];
    char *data;
    size_t n;

    snprintf(full, sizeof(full), "%s%s", root && *root ? root : "", path);
    data = sn_read_attr(full, 65536, NULL);
    if (!data || size == 0) {
        free(data);
        return false;
    }
    n = strcspn(data, "\n");
    if (n >= size)
        n = size - 1;
    memcpy(buf, data, n);
    buf[n] = '\0';
    free(data);
    return true;
}

static bool read_number(const char *root, const char *path, double *v)
{
    char line[64], *end;

    if (!read_line(root, path, line, sizeof(line)))
        return false;
    *v = strtod(line, &end);
    return end != line;
}

/* Frequency from /proc/cpuinfo's "cpu MHz" lines, for machines without
 * cpufreq (virtual machines): the mean over the listed CPUs. */
static double cpuinfo_mhz(const char *root)
{
    char full[512], *data, *line, *save = NULL;
    double sum = 0;
    int n = 0;

    snprintf(full, sizeof(full), "%s/proc/cpuinfo", root ? root : "");
    data = sn_read_attr(full, CPUINFO_MAX, NULL);
    if (!data)
        return NAN;
    for (save = data; (line = sn_tok_next(&save, '\n'));) {
        const char *colon = strchr(line, ':');
        if (sn_startswith(line, "cpu MHz") && colon) {
            sum += strtod(colon + 1, NULL);
            n++;
        }
    }
    free(data);
    return n ? sum / n : NAN;
}

void sn__bench_state_cpu(const char *fsroot, struct sn_bench_state *st)
{
    cpu_set_t set;
    double sum = 0;
    int n = 0, first = -1;
    DIR *d;
    char dir[512];

    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        CPU_SET(0, &set);
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        char path[128];
        double khz;
        if (!CPU_ISSET(cpu, &set))
            continue;
        if (first < 0)
            first = cpu;
        snprintf(path, sizeof(path),
                 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq",
                 cpu);
        if (read_number(fsroot, path, &khz)) {
            sum += khz * 1e3;
            n++;
        }
    }
    st->cpu_freq_hz = n ? sum / n : cpuinfo_mhz(fsroot) * 1e6;
    if (first >= 0) {
        char path[128];
        snprintf(path, sizeof(path),
                 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
                 first);
        if (!read_line(fsroot, path, st->governor, sizeof(st->governor)))
            st->governor[0] = '\0';
        sn_str_clean_in(st->governor, sizeof(st->governor), 0);
    }
    /* the hottest thermal zone: a throttling package shows up there */
    st->cpu_temp_c = NAN;
    snprintf(dir, sizeof(dir), "%s/sys/class/thermal",
             fsroot ? fsroot : "");
    d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            char path[384];
            double milli;
            if (!sn_startswith(e->d_name, "thermal_zone"))
                continue;
            snprintf(path, sizeof(path), "/sys/class/thermal/%.200s/temp",
                     e->d_name);
            if (read_number(fsroot, path, &milli) &&
                (isnan(st->cpu_temp_c) || milli / 1e3 > st->cpu_temp_c))
                st->cpu_temp_c = milli / 1e3;
        }
        closedir(d);
    }
    st->valid = true;
}

void sn__bench_cpu_model(const char *fsroot, char *buf, size_t size)
{
    char full[512], *data, *line, *save = NULL;

    snprintf(buf, size, "cpu");
    snprintf(full, sizeof(full), "%s/proc/cpuinfo", fsroot ? fsroot : "");
    data = sn_read_attr(full, CPUINFO_MAX, NULL);
    if (!data)
        return;
    for (save = data; (line = sn_tok_next(&save, '\n'));) {
        const char *colon = strchr(line, ':');
        if (sn_startswith(line, "model name") && colon) {
            colon++;
            while (*colon == ' ' || *colon == '\t')
                colon++;
            sn_str_clean(buf, size, colon, 0);
            break;
        }
    }
    free(data);
}

double sn__bench_llc_bytes(const char *fsroot)
{
    int best_level = 0;
    double best = 0;

    for (int i = 0; i < 8; i++) {
        char path[96], line[64], *end;
        double level, size;
        snprintf(path, sizeof(path),
                 "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if (!read_number(fsroot, path, &level))
            continue;
        snprintf(path, sizeof(path),
                 "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (!read_line(fsroot, path, line, sizeof(line)))
            continue;
        size = strtod(line, &end); /* "32768K" */
        if (*end == 'K')
            size *= 1024;
        else if (*end == 'M')
            size *= 1048576;
        if ((int)level > best_level) {
            best_level = (int)level;
            best = size;
        }
    }
    return best;
}

uint64_t sn__bench_host_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);

    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
}

uint64_t sn__bench_address_limit(void)
{
    struct rlimit rl;

    if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return UINT64_MAX;
    return (uint64_t)rl.rlim_cur;
}

void sn__bench_kernel_version(char *buf, size_t size)
{
    struct utsname u;

    if (uname(&u) == 0)
        snprintf(buf, size, "%s %s", u.sysname, u.release);
    else
        buf[0] = '\0';
}

/* ---- NVML through dlopen: no link-time dependency on the driver ------ */

typedef int (*nvml_init_fn)(void);
typedef int (*nvml_by_pci_fn)(const char *, void **);
typedef int (*nvml_clock_fn)(void *, int, unsigned int *);
typedef int (*nvml_temp_fn)(void *, int, unsigned int *);
typedef int (*nvml_power_fn)(void *, unsigned int *);
typedef int (*nvml_reasons_fn)(void *, unsigned long long *);
typedef int (*nvml_driver_fn)(char *, unsigned int);

static struct {
    pthread_once_t once;
    bool ok;
    nvml_by_pci_fn by_pci;
    nvml_clock_fn clock;
    nvml_temp_fn temp;
    nvml_power_fn power;
    nvml_reasons_fn reasons;
    nvml_driver_fn driver;
} nvml = {PTHREAD_ONCE_INIT, false, NULL, NULL, NULL, NULL, NULL, NULL};

/* NVML's constants (nvml.h): clock types and the GPU temperature sensor */
enum { NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2, NVML_TEMPERATURE_GPU = 0 };

static void nvml_load(void)
{
    void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    nvml_init_fn init;

    if (!h)
        return;
    /* the library stays loaded for the life of the process */
    init = (nvml_init_fn)(uintptr_t)dlsym(h, "nvmlInit_v2");
    nvml.by_pci = (nvml_by_pci_fn)(uintptr_t)dlsym(
        h, "nvmlDeviceGetHandleByPciBusId_v2");
    nvml.clock = (nvml_clock_fn)(uintptr_t)dlsym(h, "nvmlDeviceGetClockInfo");
    nvml.temp = (nvml_temp_fn)(uintptr_t)dlsym(h, "nvmlDeviceGetTemperature");
    nvml.power = (nvml_power_fn)(uintptr_t)dlsym(h, "nvmlDeviceGetPowerUsage");
    nvml.reasons = (nvml_reasons_fn)(uintptr_t)dlsym(
        h, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!nvml.reasons)
        nvml.reasons = (nvml_reasons_fn)(uintptr_t)dlsym(
            h, "nvmlDeviceGetCurrentClocksThrottleReasons");
    nvml.driver =
        (nvml_driver_fn)(uintptr_t)dlsym(h, "nvmlSystemGetDriverVersion");
    nvml.ok = init && nvml.by_pci && init() == 0;
}

bool sn__bench_nvml_state(const char *pci_bus_id, struct sn_bench_state *st)
{
    void *dev = NULL;
    unsigned int v;
    unsigned long long reasons;

    pthread_once(&nvml.once, nvml_load);
    if (!nvml.ok || !pci_bus_id || !*pci_bus_id ||
        nvml.by_pci(pci_bus_id, &dev) != 0)
        return false;
    if (nvml.clock && nvml.clock(dev, NVML_CLOCK_SM, &v) == 0)
        st->sm_clock_hz = v * 1e6;
    if (nvml.clock && nvml.clock(dev, NVML_CLOCK_MEM, &v) == 0)
        st->mem_clock_hz = v * 1e6;
    if (nvml.temp && nvml.temp(dev, NVML_TEMPERATURE_GPU, &v) == 0)
        st->temp_c = v;
    if (nvml.power && nvml.power(dev, &v) == 0)
        st->power_w = v / 1e3; /* milliwatts */
    if (nvml.reasons && nvml.reasons(dev, &reasons) == 0) {
        st->throttle = reasons;
        st->throttle_read = true;
    }
    st->valid = true;
    return true;
}

bool sn__bench_nvml_driver(char *buf, size_t size)
{
    pthread_once(&nvml.once, nvml_load);
    if (!nvml.ok || !nvml.driver || size > 0xffff)
        return false;
    return nvml.driver(buf, (unsigned int)size) == 0;
}

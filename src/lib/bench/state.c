/* state.c: the state of the host and the device around a test (CPU
 * frequency and governor, temperatures, accelerator clocks, power and
 * throttle reasons), read from /proc and /sys under a configurable root and
 * from NVML, all through the hardware layer (../hw/hw-int.h), so that an
 * outlier can be explained. */
#include <dirent.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../hw/hw-int.h"
#include "bench-int.h"

/* /proc/cpuinfo of a large host: about 1.5 KiB a CPU */
#define CPUINFO_MAX ((size_t)16 << 20)

/* The first line of an attribute under the root, cut to fit buf; false
 * when unreadable (a FIFO planted in an --fsroot tree is not waited on). */
static bool read_line(const char *root, const char *path, char *buf,
                      size_t size)
{
    char line[256];
    size_t n;

    if (sn__hw_read(root, path, line, sizeof(line)) != 0 || size == 0)
        return false;
    n = strcspn(line, "\n");
    if (n >= size)
        n = size - 1;
    memcpy(buf, line, n);
    buf[n] = '\0';
    return true;
}

static bool read_number(const char *root, const char *path, double *v)
{
    return sn__hw_read_double(root, path, v, NULL, 0) == 0;
}

/* Frequency from /proc/cpuinfo's "cpu MHz" lines, for machines without
 * cpufreq (virtual machines): the mean over the listed CPUs. */
static double cpuinfo_mhz(const char *root)
{
    char *data, *line, *save = NULL;
    double sum = 0;
    int n = 0;

    data = sn__hw_read_all(root, "proc/cpuinfo", CPUINFO_MAX, NULL);
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
                 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
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
    d = sn__hw_opendir(fsroot, "sys/class/thermal");
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
    char *data, *line, *save = NULL;

    snprintf(buf, size, "cpu");
    data = sn__hw_read_all(fsroot, "proc/cpuinfo", CPUINFO_MAX, NULL);
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
        char path[96], unit[16] = "";
        double level, size;
        snprintf(path, sizeof(path),
                 "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if (!read_number(fsroot, path, &level))
            continue;
        snprintf(path, sizeof(path),
                 "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (sn__hw_read_double(fsroot, path, &size, unit, sizeof(unit)))
            continue;
        if (*unit == 'K') /* "32768K" */
            size *= 1024;
        else if (*unit == 'M')
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

/* ---- the device through NVML (the hardware layer) ---------------------- */

static struct sn__hw_nvml *nvml_get(struct sn__bench_ctx *c)
{
    char why[256];

    /* opened once per run, with the library the options name (--nvml,
     * the fake NVML of the tests) */
    if (!c->nvml_tried) {
        c->nvml_tried = true;
        c->nvml = sn__hw_nvml_open(c->o.nvml_library, why, sizeof(why));
    }
    return c->nvml;
}

struct sn__hw_nvml *sn__bench_nvml(struct sn__bench_ctx *c)
{
    return nvml_get(c);
}

bool sn__bench_nvml_state(struct sn__bench_ctx *c, const char *pci_bus_id,
                          struct sn_bench_state *st)
{
    struct sn__hw_nvml *n = nvml_get(c);
    struct sn__hw_gpu_sample s;
    nvmlDevice_t dev = NULL;

    if (!n || !n->GetHandleByPci || !pci_bus_id || !*pci_bus_id ||
        n->GetHandleByPci(pci_bus_id, &dev) != NVML_SUCCESS)
        return false;
    sn__hw_nvml_sample(n, dev, &s);
    /* fields NVML did not give keep what the caller had (NaN) */
    if (!isnan(s.sm_clock_hz))
        st->sm_clock_hz = s.sm_clock_hz;
    if (!isnan(s.mem_clock_hz))
        st->mem_clock_hz = s.mem_clock_hz;
    if (!isnan(s.temp_c))
        st->temp_c = s.temp_c;
    if (!isnan(s.power_w))
        st->power_w = s.power_w;
    if (s.reasons_read) {
        st->throttle = s.reasons;
        st->throttle_read = true;
    }
    st->valid = true;
    return true;
}

bool sn__bench_nvml_driver(struct sn__bench_ctx *c, char *buf, size_t size)
{
    struct sn__hw_nvml *n = nvml_get(c);
    char v[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE] = "";

    if (!n || !n->DriverVersion || size == 0 ||
        n->DriverVersion(v, sizeof(v)) != NVML_SUCCESS)
        return false;
    sn_str_clean(buf, size, v, 0);
    return true;
}

void sn__bench_nvml_close(struct sn__bench_ctx *c)
{
    sn__hw_nvml_close(c->nvml);
    c->nvml = NULL;
    c->nvml_tried = false;
}

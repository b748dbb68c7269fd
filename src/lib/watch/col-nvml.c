/* col-nvml.c: the node agent's GPU collector. Every interval it reads each
 * GPU NVML lists through the hardware layer (../hw/hw-int.h, the loader
 * doctor and bench use) into typed observations and metric samples; the
 * time spent under each clock event reason and the XID events are counted
 * here, across intervals, so both export as counters. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/util.h"

#include "../hw/hw-int.h"
#include "watch-int.h"

#define MAX_GPUS 64        /* a node; more is a broken library */
#define MAX_PROCS_READ 256 /* processes read per GPU, before the cut */
#define MAX_SAMPLES 4096   /* process utilisation samples per GPU */
#define XID_DRAIN_MAX 1024 /* events read per interval; more wait */
#define XID_CODES_MAX 64   /* distinct XID codes counted per GPU */
#define GPU_LABELS 3       /* gpu, uuid, pci_bus_id */

/* Clock event ("throttle") reasons, nvml.h nvmlClocksEventReason* (the
 * bit list of ops-telemetry.md 3.4), named for the reason label. */
static const struct {
    uint64_t bit;
    const char *name;
} reasons[] = {
    {NVML_REASON_GPU_IDLE, "gpu_idle"},
    {NVML_REASON_APP_CLOCKS, "applications_clocks"},
    {NVML_REASON_SW_POWER_CAP, "sw_power_cap"},
    {NVML_REASON_HW_SLOWDOWN, "hw_slowdown"},
    {NVML_REASON_SYNC_BOOST, "sync_boost"},
    {NVML_REASON_SW_THERMAL, "sw_thermal"},
    {NVML_REASON_HW_THERMAL, "hw_thermal"},
    {NVML_REASON_HW_POWER_BRAKE, "hw_power_brake"},
    {NVML_REASON_DISPLAY_CLOCKS, "display_clocks"},
};
#define NREASONS (sizeof(reasons) / sizeof(reasons[0]))

/* What went wrong without stopping the collector, counted by kind. */
enum nvml_fault {
    FAULT_CALL,       /* an NVML call failed (not "not supported") */
    FAULT_LAYOUT,     /* a process list in entries of no known size */
    FAULT_XID_CODES,  /* an XID code past XID_CODES_MAX for its GPU */
    FAULT_XID_DEVICE, /* an event for a device not among the GPUs */
    FAULT_GPUS,       /* GPUs past MAX_GPUS */
    NFAULTS
};
static const char *const fault_names[NFAULTS] = {
    "call", "process_layout", "xid_codes", "xid_device", "gpus"};

/* What the collector keeps of one GPU (by NVML index) between intervals:
 * its names, so a GPU that is lost is still named, and its counters. */
struct gstate {
    char idx[16];
    char uuid[SN_WATCH_NAME_MAX], bus[SN_WATCH_NAME_MAX];
    char name[SN_WATCH_NAME_MAX];
    nvmlDevice_t handle; /* this interval's; NULL when none */
    nvmlDevice_t known;  /* the last one NVML gave: XID events name it,
                            for a GPU lost since too (XID 79) */
    bool lost;           /* GetHandle answered lost this interval */
    bool register_tried; /* for XID events */
    bool reasons_seen;
    double throttle_s[NREASONS];
    struct {
        unsigned long long code;
        double count;
    } xid[XID_CODES_MAX];
    size_t nxid;
    unsigned fresh[SN_WATCH_XIDS_MAX]; /* this interval's XIDs */
    size_t nfresh;
};

struct state {
    struct sn__hw_nvml *n;
    char *root;
    nvmlEventSet_t set; /* NULL: no XID events */
    char driver[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE];
    struct gstate g[MAX_GPUS];
    double prev_now;
    bool have_prev;
    double faults[NFAULTS];
};

/* One GPU's reading in one interval. */
struct ctx {
    struct state *s;
    struct gstate *gs;
    struct sn__watch_gpu *g;
    nvmlDevice_t d;
    struct sn_metrics *m;
    struct sn_error *err;
    struct sn_metrics_label l[GPU_LABELS + 1];
};

/* ---- samples --------------------------------------------------------- */

/* A sample with the GPU's labels and, when lname is not NULL, one more;
 * NaN (the GPU could not say) is skipped. */
static void put(struct ctx *x, bool counter, const char *name, const char *help,
                const char *lname, const char *lval, double v)
{
    size_t n = GPU_LABELS;

    if (isnan(v))
        return;
    if (lname) {
        x->l[n].name = lname;
        x->l[n++].value = lval;
    }
    if (counter)
        sn__watch_counter(x->m, name, help, x->l, n, v, x->err);
    else
        sn__watch_gauge(x->m, name, help, x->l, n, v, x->err);
}

#define GAUGE(x, name, help, v) put(x, false, name, help, NULL, NULL, v)
#define COUNTER(x, name, help, v) put(x, true, name, help, NULL, NULL, v)

/* Whether NVML answered; "not supported", "no permission" and "not
 * found" say the GPU has no such reading, a lost GPU marks it lost, and
 * any other answer is counted as a fault. */
static bool ok(struct ctx *x, nvmlReturn_t r)
{
    switch (r) {
    case NVML_SUCCESS:
        return true;
    case NVML_ERROR_NOT_SUPPORTED:
    case NVML_ERROR_FUNCTION_NOT_FOUND:
    case NVML_ERROR_NO_PERMISSION:
    case NVML_ERROR_NOT_FOUND:
        return false;
    case NVML_ERROR_GPU_IS_LOST:
    case NVML_ERROR_RESET_REQUIRED:
        x->g->lost = true;
        return false;
    default:
        x->s->faults[FAULT_CALL]++;
        return false;
    }
}

/* ---- reading one GPU -------------------------------------------------- */

static void read_identity(struct ctx *x)
{
    const struct sn__hw_nvml *n = x->s->n;
    struct gstate *gs = x->gs;
    nvmlPciInfo_t pci;
    char buf[NVML_DEVICE_UUID_V2_BUFFER_SIZE];

    memset(&pci, 0, sizeof(pci));
    if (n->PciInfo && ok(x, n->PciInfo(x->d, &pci))) {
        pci.busId[sizeof(pci.busId) - 1] = '\0';
        sn__hw_bdf_from_nvml(pci.busId, buf, sizeof(buf));
        sn_str_clean(gs->bus, sizeof(gs->bus), buf, 0);
    }
    /* the library's strings are the machine's: cut and escaped */
    memset(buf, 0, sizeof(buf));
    if (n->Uuid && ok(x, n->Uuid(x->d, buf, sizeof(buf) - 1)))
        sn_str_clean(gs->uuid, sizeof(gs->uuid), buf, 0);
    memset(buf, 0, sizeof(buf));
    if (n->Name && ok(x, n->Name(x->d, buf, sizeof(buf) - 1)))
        sn_str_clean(gs->name, sizeof(gs->name), buf, 0);
}

/* Temperatures, power, clocks and the clock event reasons; the reasons
 * set now are charged with the whole interval (dt seconds). */
static void read_sample(struct ctx *x, double dt)
{
    const struct sn__hw_nvml *n = x->s->n;
    struct sn__watch_gpu *g = x->g;
    struct sn__hw_gpu_sample smp;
    unsigned v;
    nvmlReturn_t r = NVML_ERROR_FUNCTION_NOT_FOUND;

    sn__hw_nvml_sample(n, x->d, &smp);
    g->temp_c = smp.temp_c;
    g->power_w = smp.power_w;
    g->energy_j = smp.energy_j;
    g->sm_clock_hz = smp.sm_clock_hz;
    g->mem_clock_hz = smp.mem_clock_hz;
    g->reasons = smp.reasons;
    g->reasons_read = smp.reasons_read;
    if (n->TempThreshold &&
        ok(x, n->TempThreshold(x->d, NVML_TEMPERATURE_THRESHOLD_SLOWDOWN, &v)))
        g->temp_slowdown_c = v;
    if (n->PowerEnforced)
        r = n->PowerEnforced(x->d, &v);
    if (r != NVML_SUCCESS && n->PowerLimit)
        r = n->PowerLimit(x->d, &v);
    if (ok(x, r))
        g->power_limit_w = v / 1e3; /* milliwatts */
    if (n->MaxClock && ok(x, n->MaxClock(x->d, NVML_CLOCK_SM, &v)))
        g->sm_clock_max_hz = v * 1e6; /* MHz */
    if (!smp.reasons_read)
        return;
    x->gs->reasons_seen = true;
    for (size_t k = 0; k < NREASONS; k++)
        if (smp.reasons & reasons[k].bit)
            x->gs->throttle_s[k] += dt;
}

/* ECC, row remapping, memory in use, PCIe replays and utilisation. */
static void read_memory(struct ctx *x)
{
    static const char remap_help[] =
        "Rows of GPU memory remapped to spare rows over the GPU's life, by "
        "the kind of error that caused it (NVML nvmlDeviceGetRemappedRows)";
    const struct sn__hw_nvml *n = x->s->n;
    struct sn__watch_gpu *g = x->g;
    unsigned long long corr = 0, unc = 0;
    unsigned rc = 0, ru = 0, pending = 0, failure = 0, replays = 0;
    nvmlMemory_t mem;
    nvmlUtilization_t util;

    if (ok(x, sn__hw_nvml_ecc(n, x->d, NVML_VOLATILE_ECC, &corr, &unc))) {
        g->ecc_corrected = (double)corr;
        g->ecc_uncorrected = (double)unc;
    }
    if (n->RemappedRows &&
        ok(x, n->RemappedRows(x->d, &rc, &ru, &pending, &failure))) {
        g->remap_pending = pending ? 1 : 0;
        g->remap_failure = failure ? 1 : 0;
        put(x, true, "supernode_gpu_remapped_rows_total", remap_help, "cause",
            "correctable", rc);
        put(x, true, "supernode_gpu_remapped_rows_total", remap_help, "cause",
            "uncorrectable", ru);
    }
    memset(&mem, 0, sizeof(mem));
    if (n->MemoryInfo && ok(x, n->MemoryInfo(x->d, &mem))) {
        g->mem_used_bytes = (double)mem.used;
        g->mem_total_bytes = (double)mem.total;
    }
    if (n->PcieReplays && ok(x, n->PcieReplays(x->d, &replays)))
        COUNTER(x, "supernode_gpu_pcie_replays_total",
                "PCIe replays of the GPU's link since the driver loaded "
                "(NVML nvmlDeviceGetPcieReplayCounter): a marginal link",
                replays);
    memset(&util, 0, sizeof(util));
    if (n->Utilization && ok(x, n->Utilization(x->d, &util)) && util.gpu <= 100)
        g->util = util.gpu / 100.0; /* percent of the sample period */
}

/* Every NVLink the GPU has: state and the four error counters per link
 * (exported per link, summed into the observation). */
static void read_nvlink(struct ctx *x)
{
    static const char *const names[4] = {
        "supernode_gpu_nvlink_replays_total",
        "supernode_gpu_nvlink_recoveries_total",
        "supernode_gpu_nvlink_crc_flit_errors_total",
        "supernode_gpu_nvlink_crc_data_errors_total"};
    static const char *const helps[4] = {
        "NVLink data link replays since the driver loaded, per link "
        "(NVML DL_REPLAY): a marginal link",
        "NVLink data link recoveries since the driver loaded, per link "
        "(NVML DL_RECOVERY): the link retrained; growth is a flap",
        "NVLink flow control CRC errors since the driver loaded, per link "
        "(NVML DL_CRC_FLIT)",
        "NVLink data CRC errors since the driver loaded, per link (NVML "
        "DL_CRC_DATA)"};
    const struct sn__hw_nvml *n = x->s->n;
    struct sn__watch_gpu *g = x->g;
    double sum[4] = {0, 0, 0, 0};

    for (unsigned l = 0; n->NvLinkState && l < NVML_NVLINK_MAX_LINKS; l++) {
        int active = 0;
        char link[8];

        if (n->NvLinkState(x->d, l, &active) != NVML_SUCCESS)
            continue; /* no such link on this GPU */
        snprintf(link, sizeof(link), "%u", l);
        g->nvlink_links++;
        g->nvlink_up += active == NVML_FEATURE_ENABLED;
        put(x, false, "supernode_gpu_nvlink_up",
            "Whether the NVLink is active (1) or not (0) (NVML "
            "nvmlDeviceGetNvLinkState)",
            "link", link, active == NVML_FEATURE_ENABLED);
        for (int k = 0; n->NvLinkErrors && k < 4; k++) {
            unsigned long long v = 0;
            if (!ok(x, n->NvLinkErrors(x->d, l, k, &v)))
                continue;
            sum[k] += (double)v;
            put(x, true, names[k], helps[k], "link", link, (double)v);
        }
    }
    if (g->nvlink_links == 0)
        return;
    g->nvlink_replay = sum[NVML_NVLINK_ERROR_DL_REPLAY];
    g->nvlink_recovery = sum[NVML_NVLINK_ERROR_DL_RECOVERY];
    g->nvlink_crc =
        sum[NVML_NVLINK_ERROR_DL_CRC_FLIT] + sum[NVML_NVLINK_ERROR_DL_CRC_DATA];
}

static int by_pid(const void *a, const void *b)
{
    const struct sn__hw_gpu_proc *p = a, *q = b;

    return p->pid < q->pid ? -1 : p->pid > q->pid;
}

/* A pid listed twice (the library's word) is one process: its memory
 * summed (saturating), one sample. Returns the count left. */
static unsigned merge_pids(struct sn__hw_gpu_proc *p, unsigned count)
{
    unsigned k = 0;

    if (count == 0)
        return 0;
    qsort(p, count, sizeof(*p), by_pid);
    for (unsigned i = 1; i < count; i++) {
        if (p[i].pid != p[k].pid)
            p[++k] = p[i];
        else if (p[k].mem_bytes > UINT64_MAX - p[i].mem_bytes)
            p[k].mem_bytes = UINT64_MAX;
        else
            p[k].mem_bytes += p[i].mem_bytes;
    }
    return k + 1;
}

static int by_memory(const void *a, const void *b)
{
    const struct sn__hw_gpu_proc *p = a, *q = b;

    if (p->mem_bytes != q->mem_bytes)
        return p->mem_bytes > q->mem_bytes ? -1 : 1;
    return p->pid < q->pid ? -1 : p->pid > q->pid;
}

/* The compute processes, those holding the most memory first (at most
 * SN_WATCH_PROCS_MAX), each with its state under the root: a process
 * gone or stuck that holds memory is zombie occupancy (rule 5). */
static void read_procs(struct ctx *x)
{
    const struct sn__hw_nvml *n = x->s->n;
    struct sn__hw_gpu_proc *procs = NULL;
    nvmlProcessUtilizationSample_t *samples = NULL;
    unsigned count = 0, nsamples = 0;
    size_t stride = 0;

    if (!ok(x, sn__hw_nvml_processes(n, x->d, MAX_PROCS_READ, &procs, &count,
                                     &stride)))
        return;
    if (count > 0 && !stride)
        x->s->faults[FAULT_LAYOUT]++;
    if (!procs)
        return;
    count = merge_pids(procs, count);
    qsort(procs, count, sizeof(*procs), by_memory);
    sn__hw_nvml_process_util(n, x->d, MAX_SAMPLES, &samples, &nsamples);
    for (unsigned i = 0; i < count && i < SN_WATCH_PROCS_MAX; i++) {
        struct sn__watch_proc *p = &x->g->procs[x->g->nprocs++];
        struct sn_metrics_label l[2] = {{"gpu", x->gs->idx}, {"pid", ""}};
        char pid[16];
        double start;

        p->pid = procs[i].pid;
        p->mem_bytes = (double)procs[i].mem_bytes;
        p->sm_util = NAN;
        if (sn__hw_proc_stat(x->s->root, p->pid, &p->state, &start))
            p->state = 0; /* /proc/<pid> is gone */
        for (unsigned k = 0; k < nsamples; k++)
            if (samples[k].pid == p->pid && samples[k].smUtil <= 100 &&
                (isnan(p->sm_util) || samples[k].smUtil / 100.0 > p->sm_util))
                p->sm_util = samples[k].smUtil / 100.0;
        snprintf(pid, sizeof(pid), "%u", p->pid);
        l[1].value = pid;
        sn__watch_gauge(x->m, "supernode_gpu_process_memory_bytes",
                        "GPU memory a compute process holds (NVML); pid "
                        "names the process so that memory held by one "
                        "that is gone (zombie occupancy) can be found",
                        l, 2, p->mem_bytes, x->err);
    }
    free(samples);
    free(procs);
}

/* ---- exporting one GPU ------------------------------------------------- */

static void export_readings(struct ctx *x)
{
    const struct sn__watch_gpu *g = x->g;

    GAUGE(x, "supernode_gpu_temperature_celsius",
          "GPU die temperature (NVML nvmlDeviceGetTemperature)", g->temp_c);
    GAUGE(x, "supernode_gpu_slowdown_temperature_celsius",
          "Temperature at which the GPU slows its clocks (NVML slowdown "
          "threshold)",
          g->temp_slowdown_c);
    GAUGE(x, "supernode_gpu_power_watts",
          "Board power draw (NVML nvmlDeviceGetPowerUsage, milliwatts "
          "converted)",
          g->power_w);
    GAUGE(x, "supernode_gpu_power_limit_watts",
          "Power limit the driver enforces (NVML, milliwatts converted)",
          g->power_limit_w);
    COUNTER(x, "supernode_gpu_energy_joules_total",
            "Energy the GPU consumed since the driver loaded (NVML "
            "nvmlDeviceGetTotalEnergyConsumption, millijoules converted)",
            g->energy_j);
    GAUGE(x, "supernode_gpu_sm_clock_hertz",
          "SM clock now (NVML, MHz "
          "converted)",
          g->sm_clock_hz);
    GAUGE(x, "supernode_gpu_memory_clock_hertz",
          "Memory clock now (NVML, MHz converted)", g->mem_clock_hz);
    GAUGE(x, "supernode_gpu_sm_clock_max_hertz",
          "Highest SM clock the GPU allows (NVML nvmlDeviceGetMaxClockInfo)",
          g->sm_clock_max_hz);
    COUNTER(x, "supernode_gpu_ecc_corrected_errors_total",
            "Corrected (single-bit) ECC memory errors since the driver "
            "loaded (NVML volatile count)",
            g->ecc_corrected);
    COUNTER(x, "supernode_gpu_ecc_uncorrected_errors_total",
            "Uncorrected (double-bit) ECC memory errors since the driver "
            "loaded (NVML volatile count): the memory is failing now",
            g->ecc_uncorrected);
    GAUGE(x, "supernode_gpu_row_remap_pending",
          "1 when a remapped row waits for a GPU reset to take effect",
          g->remap_pending);
    GAUGE(x, "supernode_gpu_row_remap_failure",
          "1 when a row could not be remapped: the memory cannot be "
          "repaired in place",
          g->remap_failure);
    GAUGE(x, "supernode_gpu_memory_used_bytes",
          "GPU memory in use (NVML nvmlDeviceGetMemoryInfo)",
          g->mem_used_bytes);
    GAUGE(x, "supernode_gpu_memory_total_bytes",
          "GPU memory installed (NVML nvmlDeviceGetMemoryInfo)",
          g->mem_total_bytes);
    GAUGE(x, "supernode_gpu_utilization_ratio",
          "Fraction of the last sample period in which a kernel ran (NVML "
          "nvmlDeviceGetUtilizationRates)",
          g->util);
}

/* supernode_gpu_info{gpu,uuid,pci_bus_id,name} 1. */
static void export_info(struct ctx *x)
{
    struct sn_error e = {0};

    x->l[GPU_LABELS] = (struct sn_metrics_label){"name", x->gs->name};
    if (sn_metrics_add_family(x->m, "supernode_gpu_info",
                              "The GPU's model name as NVML gives it",
                              SN_METRICS_INFO, &e) == 0)
        sn_metrics_add(x->m, "supernode_gpu_info", x->l, GPU_LABELS + 1, 1, &e);
    if (e.code && x->err && x->err->code == SN_OK)
        *x->err = e;
}

/* The counters kept here: exported for a lost GPU too, so its series
 * go on rather than vanish. */
static void export_counters(struct ctx *x)
{
    static const char throttle_help[] =
        "Seconds the GPU spent with each clock event (throttle) reason "
        "set, summed over intervals: each interval adds its length to the "
        "reasons NVML reports at its end (nvmlDeviceGetCurrentClocks"
        "EventReasons)";
    static const char xid_help[] =
        "XID error events NVML delivered, by code (nvmlEventSetWait); the "
        "codes' meanings are in docs/watch.md and NVIDIA's XID catalogue";
    const struct gstate *gs = x->gs;
    char code[24];

    for (size_t k = 0; gs->reasons_seen && k < NREASONS; k++)
        put(x, true, "supernode_gpu_throttle_seconds_total", throttle_help,
            "reason", reasons[k].name, gs->throttle_s[k]);
    for (size_t k = 0; k < gs->nxid; k++) {
        snprintf(code, sizeof(code), "%llu", gs->xid[k].code);
        put(x, true, "supernode_gpu_xid_total", xid_help, "xid", code,
            gs->xid[k].count);
    }
    GAUGE(x, "supernode_gpu_lost",
          "1 when NVML lists the GPU but cannot open or reach it "
          "(GPU_IS_LOST, RESET_REQUIRED or another error: fallen off the "
          "bus, needs a reset), else 0",
          x->g->lost ? 1 : 0);
}

/* Read GPU i into g (pushed by the caller) and m. */
static void read_gpu(struct state *s, unsigned i, struct sn__watch_gpu *g,
                     double dt, struct sn_metrics *m, struct sn_error *err)
{
    struct gstate *gs = &s->g[i];
    struct ctx x = {s,
                    gs,
                    g,
                    gs->handle,
                    m,
                    err,
                    {{"gpu", gs->idx},
                     {"uuid", gs->uuid},
                     {"pci_bus_id", gs->bus},
                     {NULL, NULL}}};

    g->index = (int)i;
    g->temp_c = g->temp_slowdown_c = g->power_w = g->power_limit_w = NAN;
    g->energy_j = g->sm_clock_hz = g->mem_clock_hz = g->sm_clock_max_hz = NAN;
    g->ecc_corrected = g->ecc_uncorrected = NAN;
    g->remap_pending = g->remap_failure = NAN;
    g->nvlink_recovery = g->nvlink_replay = g->nvlink_crc = NAN;
    g->mem_used_bytes = g->mem_total_bytes = g->util = NAN;
    g->lost = gs->lost;
    if (!g->lost) {
        read_identity(&x);
        /* the first call that answers "lost" ends the reading */
        if (!g->lost)
            read_sample(&x, dt);
        if (!g->lost)
            read_memory(&x);
        if (!g->lost)
            read_nvlink(&x);
        if (!g->lost)
            read_procs(&x);
    }
    snprintf(g->bus, sizeof(g->bus), "%s", gs->bus);
    snprintf(g->uuid, sizeof(g->uuid), "%s", gs->uuid);
    snprintf(g->name, sizeof(g->name), "%s", gs->name);
    memcpy(g->xids, gs->fresh, gs->nfresh * sizeof(g->xids[0]));
    g->nxids = gs->nfresh;
    if (!g->lost) {
        export_info(&x);
        export_readings(&x);
    }
    export_counters(&x);
}

/* ---- the interval ------------------------------------------------------ */

/* This interval's handles; a GPU whose handle fails is marked lost. A
 * GPU seen for the first time is registered for XID events. */
static void get_handles(struct state *s, unsigned count)
{
    const struct sn__hw_nvml *n = s->n;

    for (unsigned i = 0; i < count; i++) {
        struct gstate *gs = &s->g[i];
        nvmlDevice_t d = NULL;
        nvmlReturn_t r = n->GetHandle(i, &d);

        gs->handle = r == NVML_SUCCESS ? d : NULL;
        if (gs->handle)
            gs->known = d;
        /* a GPU NVML counts but cannot open is as good as lost (as
         * doctor sees it); an answer other than lost is counted too */
        gs->lost = r != NVML_SUCCESS;
        gs->nfresh = 0;
        if (r != NVML_SUCCESS && r != NVML_ERROR_GPU_IS_LOST &&
            r != NVML_ERROR_RESET_REQUIRED)
            s->faults[FAULT_CALL]++;
        if (gs->handle && s->set && !gs->register_tried) {
            gs->register_tried = true;
            if (n->EventRegister(d, nvmlEventTypeXidCriticalError, s->set) !=
                NVML_SUCCESS)
                s->faults[FAULT_CALL]++;
        }
    }
}

/* Count one XID event of GPU gs. */
static void count_xid(struct state *s, struct gstate *gs,
                      unsigned long long code)
{
    size_t k;

    for (k = 0; k < gs->nxid && gs->xid[k].code != code; k++)
        ;
    if (k == gs->nxid && k < XID_CODES_MAX) {
        gs->xid[k].code = code;
        gs->xid[k].count = 0;
        gs->nxid++;
    }
    if (k < gs->nxid)
        gs->xid[k].count++;
    else
        s->faults[FAULT_XID_CODES]++;
    /* each code once an interval, where it was last seen: the rules
     * read which codes came and the last one, so a burst of one code
     * cannot fill the list and push out a critical one after it */
    unsigned c = code > UINT32_MAX ? UINT32_MAX : (unsigned)code;
    for (k = 0; k < gs->nfresh && gs->fresh[k] != c; k++)
        ;
    if (k < gs->nfresh) {
        memmove(gs->fresh + k, gs->fresh + k + 1,
                (gs->nfresh - k - 1) * sizeof(gs->fresh[0]));
        gs->nfresh--;
    }
    if (gs->nfresh < SN_WATCH_XIDS_MAX)
        gs->fresh[gs->nfresh++] = c;
}

/* Read the XID events waiting, without waiting for more (timeout 0), at
 * most XID_DRAIN_MAX of them: the rest wait for the next interval. */
static void drain_xids(struct state *s, unsigned count)
{
    const struct sn__hw_nvml *n = s->n;

    for (unsigned k = 0; s->set && k < XID_DRAIN_MAX; k++) {
        nvmlEventData_t data;
        unsigned i;

        memset(&data, 0, sizeof(data));
        if (n->EventWait(s->set, &data, 0) != NVML_SUCCESS)
            break; /* none left (or the set failed: tried again next time) */
        if (!(data.eventType & nvmlEventTypeXidCriticalError))
            continue;
        for (i = 0; i < count && s->g[i].known != data.device; i++)
            ;
        if (i == count || !data.device)
            s->faults[FAULT_XID_DEVICE]++;
        else
            count_xid(s, &s->g[i], data.eventData);
    }
}

/* The node's samples: how many GPUs NVML counts, the faults, the driver. */
static void export_node(struct state *s, unsigned count, struct sn_metrics *m,
                        struct sn_error *err)
{
    struct sn_error e = {0};
    struct sn_metrics_label l = {"driver_version", s->driver};

    sn__watch_gauge(m, "supernode_nvml_devices",
                    "GPUs NVML counts, lost ones included", NULL, 0, count,
                    err);
    sn__watch_gauge(m, "supernode_nvml_xid_events_enabled",
                    "1 when NVML delivers XID events to the agent, 0 when "
                    "it does not (XIDs then only from the kernel log)",
                    NULL, 0, s->set ? 1 : 0, err);
    for (size_t k = 0; k < NFAULTS; k++) {
        struct sn_metrics_label f = {"fault", fault_names[k]};
        sn__watch_counter(m, "supernode_nvml_faults_total",
                          "NVML answers the GPU collector could not use "
                          "and went on without, by kind: call (an error "
                          "other than not supported), process_layout, "
                          "xid_codes (past the per-GPU cap), xid_device, "
                          "gpus (past the cap)",
                          &f, 1, s->faults[k], err);
    }
    if (sn_metrics_add_family(m, "supernode_nvml_driver_info",
                              "The NVIDIA driver version NVML reports",
                              SN_METRICS_INFO, &e) == 0)
        sn_metrics_add(m, "supernode_nvml_driver_info", &l, 1, 1, &e);
    if (e.code && err && err->code == SN_OK)
        *err = e;
}

static int nvml_collect(void *state, struct sn__watch_obs *obs,
                        struct sn_metrics *m, struct sn_error *err)
{
    struct state *s = state;
    struct sn_error e = {0};
    unsigned listed = 0, count;
    double dt = 0;
    char why[160];
    nvmlReturn_t r = s->n->GetCount(&listed);

    if (r != NVML_SUCCESS)
        return sn_error_set(err, SN_ERUNTIME, "nvmlDeviceGetCount: %s",
                            sn__hw_nvml_error(s->n, r, why, sizeof(why)));
    count = listed;
    if (count > MAX_GPUS) {
        s->faults[FAULT_GPUS]++;
        count = MAX_GPUS;
    }
    /* the interval's length, charged to the throttle reasons set now; the
     * first interval (or a clock that went back) charges nothing */
    if (s->have_prev && obs->now > s->prev_now)
        dt = obs->now - s->prev_now;
    s->prev_now = obs->now;
    s->have_prev = true;
    obs->nvml = true;
    obs->nvml_count = listed > INT_MAX ? INT_MAX : (int)listed;
    get_handles(s, count);
    drain_xids(s, count);
    for (unsigned i = 0; i < count; i++) {
        struct sn__watch_gpu *g = SN_WATCH_PUSH(obs, gpus);
        if (!g) {
            sn_error_set(&e, SN_ENOMEM, "no room for GPU %u's observation", i);
            break;
        }
        read_gpu(s, i, g, dt, m, &e);
    }
    export_node(s, listed, m, &e);
    if (e.code && err)
        *err = e;
    return e.code;
}

static void nvml_close(void *state)
{
    struct state *s = state;

    if (!s)
        return;
    if (s->set)
        s->n->EventFree(s->set);
    sn__hw_nvml_close(s->n);
    free(s->root);
    free(s);
}

static int nvml_open(const struct sn__watch_cfg *cfg, void **out,
                     struct sn_error *err)
{
    struct sn__hw_nvml *n;
    struct state *s;
    char why[512];

    *out = NULL;
    if (!cfg->nvml)
        return sn_error_set(err, SN_ENOTSUP,
                            "NVML turned off (--nvml none): no GPU readings");
    n = sn__hw_nvml_open(cfg->nvml, why, sizeof(why));
    if (!n)
        return sn_error_set(err, SN_ERUNTIME, "%s", why);
    s = sn_xcalloc(1, sizeof(*s));
    s->n = n;
    s->root = sn_xstrdup(cfg->fsroot ? cfg->fsroot : "");
    for (unsigned i = 0; i < MAX_GPUS; i++)
        snprintf(s->g[i].idx, sizeof(s->g[i].idx), "%u", i);
    if (n->DriverVersion) {
        char v[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE] = "";
        if (n->DriverVersion(v, sizeof(v) - 1) == NVML_SUCCESS)
            sn_str_clean(s->driver, sizeof(s->driver), v, 0);
    }
    /* XID events come through one event set for every GPU, registered as
     * each GPU is first seen; without one XIDs come from the kernel log */
    if (n->EventCreate && n->EventRegister && n->EventWait && n->EventFree &&
        n->EventCreate(&s->set) != NVML_SUCCESS)
        s->set = NULL;
    *out = s;
    return SN_OK;
}

const struct sn__watch_collector sn__watch_col_nvml = {
    "nvml", nvml_open, nvml_collect, nvml_close};

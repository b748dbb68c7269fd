/* nvml.c: the GPU checks, through NVML loaded with dlopen() (no build
 * dependency; without the library the checks are skipped and the report
 * says so). Per GPU: ECC counts, retired pages or remapped rows, clock
 * event (throttle) reasons, power limit, memory clock, temperature,
 * NVLink state and errors, processes holding memory (dead or idle: zombie
 * occupancy) and XID events; and GPUs on the PCI bus that NVML does not
 * know. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "health-int.h"

#define MAX_GPUS 64      /* a node; more is a broken library or fixture */
#define MAX_PROCS 256    /* compute processes listed per GPU */
#define MAX_SAMPLES 4096 /* process utilisation samples read per GPU */
#define MAX_EVENTS 1024  /* XID events kept */

typedef nvmlDevice_t dev_t_;

void sn__health_nvml_open(struct hctx *c)
{
    struct sn__hw_nvml *n;
    nvmlReturn_t r;
    unsigned count = 0;
    char e[160];

    n = sn__hw_nvml_open(c->cfg->nvml_library, c->nvml_skip,
                         sizeof(c->nvml_skip));
    if (!n)
        return;
    if (n->DriverVersion) {
        char v[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE] = "";
        if (n->DriverVersion(v, sizeof(v)) == NVML_SUCCESS)
            snprintf(c->driver_version, sizeof(c->driver_version), "%s", v);
    }
    if (n->CudaDriverVersion && n->CudaDriverVersion(&c->cuda_driver_version))
        c->cuda_driver_version = 0;
    r = n->GetCount(&count);
    if (r != NVML_SUCCESS)
        count = 0;
    if (count > MAX_GPUS)
        count = MAX_GPUS;
    c->gpus = sn_xcalloc(count ? count : 1, sizeof(*c->gpus));
    for (unsigned i = 0; i < count; i++) {
        struct hgpu *g = &c->gpus[c->ngpus];
        dev_t_ d = NULL;
        nvmlPciInfo_t pci;

        memset(g, 0, sizeof(*g));
        g->index = i;
        g->pstate = NVML_PSTATE_UNKNOWN;
        r = n->GetHandle(i, &d);
        if (r != NVML_SUCCESS) {
            /* a GPU NVML counts but cannot open: lost or needs a reset */
            g->lost = true;
            snprintf(g->name, sizeof(g->name), "%s",
                     sn__hw_nvml_error(n, r, e, sizeof(e)));
            c->ngpus++;
            continue;
        }
        g->handle = d;
        memset(&pci, 0, sizeof(pci));
        if (n->PciInfo && n->PciInfo(d, &pci) == NVML_SUCCESS)
            sn__hw_bdf_from_nvml(pci.busId, g->bdf, sizeof(g->bdf));
        if (n->Name && n->Name(d, g->name, sizeof(g->name)) != NVML_SUCCESS)
            g->name[0] = '\0';
        g->name[sizeof(g->name) - 1] = '\0';
        if (n->Uuid && n->Uuid(d, g->uuid, sizeof(g->uuid)) != NVML_SUCCESS)
            g->uuid[0] = '\0';
        g->uuid[sizeof(g->uuid) - 1] = '\0';
        if (n->Vbios && n->Vbios(d, g->vbios, sizeof(g->vbios)) != NVML_SUCCESS)
            g->vbios[0] = '\0';
        g->vbios[sizeof(g->vbios) - 1] = '\0';
        if (n->Pstate) {
            r = n->Pstate(d, &g->pstate);
            if (r == NVML_ERROR_GPU_IS_LOST || r == NVML_ERROR_RESET_REQUIRED)
                g->lost = true;
            if (r != NVML_SUCCESS)
                g->pstate = NVML_PSTATE_UNKNOWN;
        }
        c->ngpus++;
    }
    c->nvml = n;
}

void sn__health_nvml_close(struct hctx *c)
{
    sn__hw_nvml_close(c->nvml);
    c->nvml = NULL;
    free(c->gpus);
    c->gpus = NULL;
    c->ngpus = 0;
}

const struct hgpu *sn__health_gpu_find(const struct hctx *c, const char *bdf)
{
    for (size_t i = 0; i < c->ngpus; i++)
        if (!strcmp(c->gpus[i].bdf, bdf))
            return &c->gpus[i];
    return NULL;
}

/* ---- the checks ------------------------------------------------------- */

struct gpu_ctx {
    struct hctx *c;
    const struct sn__hw_nvml *n;
    const struct hgpu *g;
    char subject[256];
};

/* "0000:17:00.0 gpu3 NVIDIA H100 80GB HBM3 slot 3": address first, as
 * every device check's subject. */
static void gpu_subject(struct gpu_ctx *x)
{
    const struct hpci *p = sn__health_pci_find(x->c, x->g->bdf);

    snprintf(x->subject, sizeof(x->subject), "%s gpu%u %s%s%s", x->g->bdf,
             x->g->index, x->g->name, p && p->slot[0] ? " slot " : "",
             p ? p->slot : "");
}

static void add(struct gpu_ctx *x, const char *name, enum sn_health_status st,
                const char *remedy, const char *fmt, ...) SN_PRINTF(5, 6);

static void add(struct gpu_ctx *x, const char *name, enum sn_health_status st,
                const char *remedy, const char *fmt, ...)
{
    char ev[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(ev, sizeof(ev), fmt, ap);
    va_end(ap);
    sn_health_report_add(x->c->rep, name, st, x->subject, remedy, "%s", ev);
}

/* A call that answered "not supported" or "no permission" becomes a skip
 * naming the call; other errors a failure (the GPU did not answer). */
static bool answered(struct gpu_ctx *x, const char *name, const char *what,
                     nvmlReturn_t r)
{
    if (r == NVML_SUCCESS)
        return true;
    if (r == NVML_ERROR_NOT_SUPPORTED || r == NVML_ERROR_FUNCTION_NOT_FOUND)
        add(x, name, SN_HEALTH_SKIP, NULL, "%s: not supported on this GPU",
            what);
    else if (r == NVML_ERROR_NO_PERMISSION)
        add(x, name, SN_HEALTH_SKIP, NULL, "%s: needs root", what);
    else {
        char e[160];
        add(x, name, SN_HEALTH_FAIL,
            "the GPU did not answer: read the kernel log for XIDs, reset "
            "the GPU",
            "%s: %s", what, sn__hw_nvml_error(x->n, r, e, sizeof(e)));
    }
    return false;
}

static void check_ecc(struct gpu_ctx *x)
{
    const struct sn__hw_nvml *n = x->n;
    dev_t_ d = x->g->handle;
    int cur = 0, pending = 0;
    unsigned long long vc = 0, vu = 0, ac = 0, au = 0;
    nvmlReturn_t r;

    if (!n->EccMode || !n->EccTotal) {
        add(x, "nvml.ecc", SN_HEALTH_SKIP, NULL, "no ECC entry points");
        return;
    }
    r = n->EccMode(d, &cur, &pending);
    if (!answered(x, "nvml.ecc", "ECC mode", r))
        return;
    if (cur != NVML_FEATURE_ENABLED) {
        add(x, "nvml.ecc", SN_HEALTH_WARN,
            "turn ECC on for long training runs (nvidia-smi -e 1, then "
            "reset the GPU); it costs a little memory bandwidth",
            "ECC is off%s",
            pending == NVML_FEATURE_ENABLED ? " (on after the next reset)"
                                            : "");
        return;
    }
    r = sn__hw_nvml_ecc(n, d, NVML_VOLATILE_ECC, &vc, &vu);
    if (r == NVML_SUCCESS)
        r = sn__hw_nvml_ecc(n, d, NVML_AGGREGATE_ECC, &ac, &au);
    if (!answered(x, "nvml.ecc", "ECC counts", r))
        return;
    /* volatile counts are since the last driver load: uncorrected ones
     * there mean the memory is failing now; aggregate ones are history */
    if (vu > 0)
        add(x, "nvml.ecc", SN_HEALTH_FAIL,
            "uncorrectable memory errors since the driver loaded: drain the "
            "GPU, reset it (row remapping or page retirement takes effect "
            "at reset), return it if they recur",
            "uncorrected %llu volatile, %llu aggregate; corrected %llu "
            "volatile, %llu aggregate",
            vu, au, vc, ac);
    else if (au > 0 || vc > 0)
        add(x, "nvml.ecc", SN_HEALTH_WARN,
            au > 0 ? "uncorrectable errors in the GPU's history: check "
                     "nvml.row_remap (or nvml.retired_pages) for pending or "
                     "failed repairs and trend the count"
                   : "corrected errors since the driver loaded: trend the "
                     "count; a rising rate (XID 92) predicts failure",
            "uncorrected %llu volatile, %llu aggregate; corrected %llu "
            "volatile, %llu aggregate",
            vu, au, vc, ac);
    else
        add(x, "nvml.ecc", SN_HEALTH_PASS, NULL,
            "ECC on; no uncorrected errors, %llu corrected in the GPU's "
            "history",
            ac);
}

/* Row remapping (Ampere and later) or page retirement (earlier GPUs). */
static void check_memory_repair(struct gpu_ctx *x)
{
    const struct sn__hw_nvml *n = x->n;
    dev_t_ d = x->g->handle;
    unsigned corr = 0, unc = 0, pending = 0, failure = 0;
    nvmlReturn_t r = NVML_ERROR_NOT_SUPPORTED;

    if (n->RemappedRows)
        r = n->RemappedRows(d, &corr, &unc, &pending, &failure);
    if (r == NVML_SUCCESS) {
        if (failure)
            add(x, "nvml.row_remap", SN_HEALTH_FAIL,
                "a row could not be remapped: the memory cannot be repaired "
                "in place; drain the GPU and return it to the vendor",
                "remapping failed; rows remapped: %u for uncorrectable, %u "
                "for correctable errors",
                unc, corr);
        else if (pending)
            add(x, "nvml.row_remap", SN_HEALTH_FAIL,
                "a remap waits for a GPU reset: drain the GPU and reset it "
                "(nvidia-smi -r) so the bad row is replaced",
                "remap pending; rows remapped: %u for uncorrectable, %u for "
                "correctable errors",
                unc, corr);
        else
            add(x, "nvml.row_remap", SN_HEALTH_PASS, NULL,
                "none pending or failed; rows remapped: %u for "
                "uncorrectable, %u for correctable errors",
                unc, corr);
        return;
    }
    if (r != NVML_ERROR_NOT_SUPPORTED && r != NVML_ERROR_FUNCTION_NOT_FOUND) {
        answered(x, "nvml.row_remap", "remapped rows", r);
        return;
    }
    /* no row remapper: pre-Ampere page retirement */
    if (n->RetiredPages && n->RetiredPending) {
        unsigned sbe = 0, dbe = 0;
        int pend = 0;
        nvmlReturn_t r1, r2, r3;

        r1 = n->RetiredPages(
            d, NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS, &sbe,
            NULL);
        r2 = n->RetiredPages(d, NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR,
                             &dbe, NULL);
        r3 = n->RetiredPending(d, &pend);
        /* with no buffer, NVML answers "insufficient size" and the count */
        if (r1 == NVML_ERROR_INSUFFICIENT_SIZE)
            r1 = NVML_SUCCESS;
        if (r2 == NVML_ERROR_INSUFFICIENT_SIZE)
            r2 = NVML_SUCCESS;
        if (!answered(x, "nvml.retired_pages", "retired pages",
                      r1   ? r1
                      : r2 ? r2
                           : r3))
            return;
        /* 64 retired pages is the hardware's limit; DCGM fails a GPU from
         * 15 double-bit retirements (DcgmGPUHardwareLimits.h) */
        if (sbe + dbe >= 60 || dbe >= 15)
            add(x, "nvml.retired_pages", SN_HEALTH_FAIL,
                "the GPU is at the page retirement limit: return it to the "
                "vendor",
                "%u pages retired (%u single-bit, %u double-bit)%s", sbe + dbe,
                sbe, dbe, pend ? ", retirement pending" : "");
        else if (pend)
            add(x, "nvml.retired_pages", SN_HEALTH_WARN,
                "a page waits for retirement: reset the GPU or reload the "
                "driver",
                "retirement pending; %u pages retired (%u single-bit, %u "
                "double-bit)",
                sbe + dbe, sbe, dbe);
        else
            add(x, "nvml.retired_pages", SN_HEALTH_PASS, NULL,
                "%u pages retired (%u single-bit, %u double-bit), none "
                "pending",
                sbe + dbe, sbe, dbe);
        return;
    }
    add(x, "nvml.row_remap", SN_HEALTH_SKIP, NULL,
        "neither row remapping nor page retirement reported");
}

static void check_throttle(struct gpu_ctx *x)
{
    static const struct {
        unsigned long long bit;
        const char *name;
        enum sn_health_status st;
    } reasons[] = {
        {NVML_REASON_HW_SLOWDOWN, "hardware slowdown", SN_HEALTH_FAIL},
        {NVML_REASON_HW_THERMAL, "hardware thermal slowdown", SN_HEALTH_FAIL},
        {NVML_REASON_HW_POWER_BRAKE, "hardware power brake", SN_HEALTH_FAIL},
        {NVML_REASON_SW_THERMAL, "software thermal slowdown", SN_HEALTH_WARN},
        {NVML_REASON_SW_POWER_CAP, "software power cap", SN_HEALTH_PASS},
        {NVML_REASON_APP_CLOCKS, "applications clocks setting", SN_HEALTH_PASS},
        {NVML_REASON_SYNC_BOOST, "sync boost", SN_HEALTH_PASS},
        {NVML_REASON_GPU_IDLE, "idle", SN_HEALTH_PASS},
        {NVML_REASON_DISPLAY_CLOCKS, "display clocks", SN_HEALTH_PASS},
    };
    unsigned long long mask = 0;
    enum sn_health_status st = SN_HEALTH_PASS;
    char names[512] = "";
    const char *remedy = NULL;

    if (!x->n->Reasons) {
        add(x, "nvml.throttle", SN_HEALTH_SKIP, NULL,
            "no clock event reasons entry point");
        return;
    }
    if (!answered(x, "nvml.throttle", "clock event reasons",
                  x->n->Reasons(x->g->handle, &mask)))
        return;
    for (size_t i = 0; i < SN_ARRAY_LEN(reasons); i++) {
        size_t len = strlen(names);
        if (!(mask & reasons[i].bit))
            continue;
        snprintf(names + len, sizeof(names) - len, "%s%s", len ? ", " : "",
                 reasons[i].name);
        if (reasons[i].st > st)
            st = reasons[i].st;
    }
    if (mask & (NVML_REASON_HW_POWER_BRAKE | NVML_REASON_HW_SLOWDOWN))
        remedy = "the board asked the GPU to slow down (power brake: an "
                 "external signal from the power supply or chassis; "
                 "slowdown: over-current or over-temperature): check the "
                 "power supplies, cabling and the BMC event log; reseat the "
                 "GPU's power connectors";
    else if (mask & (NVML_REASON_HW_THERMAL | NVML_REASON_SW_THERMAL))
        remedy = "the GPU is too hot: check fans or coolant flow on its "
                 "branch, the inlet temperature and the cold plate contact";
    add(x, "nvml.throttle", st, remedy, "%s (mask 0x%llx)",
        names[0] ? names : "none", mask);
}

static void check_power(struct gpu_ctx *x)
{
    const struct sn__hw_nvml *n = x->n;
    dev_t_ d = x->g->handle;
    unsigned limit = 0, def = 0, lo = 0, hi = 0;
    double want;
    nvmlReturn_t r = NVML_ERROR_FUNCTION_NOT_FOUND;

    if (n->PowerEnforced)
        r = n->PowerEnforced(d, &limit);
    if (r != NVML_SUCCESS && n->PowerLimit)
        r = n->PowerLimit(d, &limit);
    if (!answered(x, "nvml.power_limit", "power limit", r))
        return;
    if (!n->PowerConstraints || n->PowerConstraints(d, &lo, &hi))
        hi = 0;
    if (!n->PowerDefault || n->PowerDefault(d, &def))
        def = 0;
    /* NVML speaks milliwatts; a limit the design sets on purpose wins
     * over the default and the maximum */
    want = x->c->cfg->node ? x->c->cfg->node->power_limit_w : 0;
    if (want > 0 && fabs(limit / 1000.0 - want) > 1)
        add(x, "nvml.power_limit",
            limit / 1000.0 < want ? SN_HEALTH_FAIL : SN_HEALTH_WARN,
            "the limit differs from the one the design sets: nvidia-smi -pl "
            "with the design's value (and make it persistent in the image)",
            "limit %u W, the design sets %.0f W (default %u W, max %u W)",
            limit / 1000, want, def / 1000, hi / 1000);
    else if (want > 0)
        add(x, "nvml.power_limit", SN_HEALTH_PASS, NULL,
            "limit %u W as the design sets", limit / 1000);
    else if (def && limit < def)
        add(x, "nvml.power_limit", SN_HEALTH_FAIL,
            "someone lowered the power limit below the default: restore it "
            "(nvidia-smi -pl DEFAULT) unless the site caps power on "
            "purpose, then write it into the spec's node section",
            "limit %u W, below the default %u W (max %u W)", limit / 1000,
            def / 1000, hi / 1000);
    else if (hi && limit < hi)
        add(x, "nvml.power_limit", SN_HEALTH_WARN,
            "the limit is below what the board allows: a balanced or capped "
            "profile costs throughput; raise it (nvidia-smi -pl MAX) if the "
            "rack's power budget allows",
            "limit %u W of %u W max (default %u W)", limit / 1000, hi / 1000,
            def / 1000);
    else
        add(x, "nvml.power_limit", SN_HEALTH_PASS, NULL,
            "limit %u W, the maximum", limit / 1000);
}

static void check_clocks(struct gpu_ctx *x)
{
    const struct sn__hw_nvml *n = x->n;
    unsigned cur = 0, max = 0;
    nvmlReturn_t r;

    if (!n->Clock || !n->MaxClock) {
        add(x, "nvml.clocks", SN_HEALTH_SKIP, NULL, "no clock entry points");
        return;
    }
    r = n->Clock(x->g->handle, NVML_CLOCK_MEM, &cur);
    if (r == NVML_SUCCESS)
        r = n->MaxClock(x->g->handle, NVML_CLOCK_MEM, &max);
    if (!answered(x, "nvml.clocks", "memory clock", r))
        return;
    /* a memory clock below its maximum is one that floats with load:
     * benchmarks then swing by a few percent between runs */
    if (max && cur < max)
        add(x, "nvml.clocks", SN_HEALTH_WARN,
            "lock the memory clock for reproducible benchmarks: "
            "nvidia-smi -lmc MAX (and -lgc for the graphics clock); undo "
            "with -rmc/-rgc",
            "memory clock %u MHz of %u MHz max in P%d: not locked", cur, max,
            x->g->pstate);
    else
        add(x, "nvml.clocks", SN_HEALTH_PASS, NULL,
            "memory clock %u MHz, its maximum", cur);
}

static void check_temperature(struct gpu_ctx *x)
{
    const struct sn__hw_nvml *n = x->n;
    unsigned t = 0, slow = 0, shut = 0;

    if (!n->Temperature) {
        add(x, "nvml.temperature", SN_HEALTH_SKIP, NULL,
            "no temperature entry point");
        return;
    }
    if (!answered(x, "nvml.temperature", "temperature",
                  n->Temperature(x->g->handle, NVML_TEMPERATURE_GPU, &t)))
        return;
    if (n->TempThreshold) {
        if (n->TempThreshold(x->g->handle, NVML_TEMPERATURE_THRESHOLD_SLOWDOWN,
                             &slow))
            slow = 0;
        if (n->TempThreshold(x->g->handle, NVML_TEMPERATURE_THRESHOLD_SHUTDOWN,
                             &shut))
            shut = 0;
    }
    if (slow && t >= slow)
        add(x, "nvml.temperature", SN_HEALTH_FAIL,
            "the GPU is at its slowdown temperature: check fans or coolant "
            "flow on its branch and the inlet temperature",
            "%u C, slowdown at %u C, shutdown at %u C", t, slow, shut);
    /* within 5 C of slowdown, or above 85 C when the threshold is unknown
     * (SuperBench's gpu_temperature > 85 rule) */
    else if ((slow && t + 5 >= slow) || (!slow && t > 85))
        add(x, "nvml.temperature", SN_HEALTH_WARN,
            "the GPU runs close to its slowdown temperature: compare with "
            "its neighbours; one warmer than the rest points at its cooling "
            "branch",
            "%u C, slowdown at %u C", t, slow);
    else if (slow)
        add(x, "nvml.temperature", SN_HEALTH_PASS, NULL,
            "%u C, slowdown at %u C", t, slow);
    else
        add(x, "nvml.temperature", SN_HEALTH_PASS, NULL, "%u C", t);
}

static void check_nvlink(struct gpu_ctx *x)
{
    static const char *const counters[] = {"replay", "recovery", "crc_flit",
                                           "crc_data"};
    const struct sn__hw_nvml *n = x->n;
    unsigned supported = 0, up = 0;
    char down[256] = "", errs[512] = "";
    bool any_err = false;
    int want;

    if (!n->NvLinkState) {
        add(x, "nvml.nvlink", SN_HEALTH_SKIP, NULL, "no NVLink entry point");
        return;
    }
    for (unsigned l = 0; l < NVML_NVLINK_MAX_LINKS; l++) {
        int active = 0;
        nvmlReturn_t r = n->NvLinkState(x->g->handle, l, &active);
        if (r != NVML_SUCCESS)
            continue; /* no such link on this GPU */
        supported++;
        if (active == NVML_FEATURE_ENABLED) {
            up++;
        } else {
            size_t len = strlen(down);
            snprintf(down + len, sizeof(down) - len, "%s%u", len ? "," : "", l);
        }
        for (int k = 0; n->NvLinkErrors && k < 4; k++) {
            unsigned long long v = 0;
            size_t len = strlen(errs);
            if (n->NvLinkErrors(x->g->handle, l, k, &v) || v == 0)
                continue;
            any_err = true;
            snprintf(errs + len, sizeof(errs) - len, "%slink %u %s %llu",
                     len ? ", " : "", l, counters[k], v);
        }
    }
    want = x->c->cfg->node ? x->c->cfg->node->nvlinks : -1;
    if (supported == 0) {
        if (want > 0)
            add(x, "nvml.nvlink", SN_HEALTH_FAIL,
                "the design gives this GPU NVLinks the driver does not see: "
                "check the fabric manager service and the GPU baseboard",
                "no NVLink reported; the design expects %d", want);
        else
            add(x, "nvml.nvlink", SN_HEALTH_SKIP, NULL,
                "no NVLink on this GPU");
        return;
    }
    if (want > 0 && (int)up < want)
        add(x, "nvml.nvlink", SN_HEALTH_FAIL,
            "fewer NVLinks up than the design: check the NVLink bridge or "
            "the tray's connection to the switch, the fabric manager "
            "service, then reset the GPU",
            "%u of %u links up, the design expects %d%s%s%s%s", up, supported,
            want, down[0] ? "; down: " : "", down, any_err ? "; " : "", errs);
    else if (up < supported)
        add(x, "nvml.nvlink", SN_HEALTH_FAIL,
            "a link is down: check the NVLink bridge or the tray's "
            "connection to the switch, the fabric manager service, then "
            "reset the GPU",
            "%u of %u links up; down: %s%s%s", up, supported, down,
            any_err ? "; " : "", errs);
    else if (any_err)
        add(x, "nvml.nvlink", SN_HEALTH_WARN,
            "link errors since the driver loaded: replays and CRC errors "
            "point at a marginal link, recoveries at one that retrained; "
            "compare with the next run and reseat the link if they grow",
            "%u of %u links up; %s", up, supported, errs);
    else
        add(x, "nvml.nvlink", SN_HEALTH_PASS, NULL,
            "%u of %u links up, no errors", up, supported);
}

static double uptime(const struct hctx *c)
{
    char buf[128];

    if (sn__hw_read(c->root, "proc/uptime", buf, sizeof(buf)))
        return 0;
    return strtod(buf, NULL);
}

static void check_processes(struct gpu_ctx *x)
{
    const struct sn__hw_nvml *n = x->n;
    struct sn__hw_gpu_proc *procs = NULL;
    nvmlProcessUtilizationSample_t *samples = NULL;
    nvmlUtilization_t util = {0, 0};
    unsigned count = 0, nsamples = 0;
    bool have_util = false;
    size_t problems = 0, stride = 0;
    double up = uptime(x->c);
    nvmlReturn_t r;

    if (!n->Processes) {
        add(x, "nvml.processes", SN_HEALTH_SKIP, NULL,
            "no process list entry point");
        return;
    }
    r = sn__hw_nvml_processes(n, x->g->handle, MAX_PROCS, &procs, &count,
                              &stride);
    if (!answered(x, "nvml.processes", "compute processes", r))
        goto out;
    if (count == 0) {
        add(x, "nvml.processes", SN_HEALTH_PASS, NULL,
            "no compute process holds memory");
        goto out;
    }
    if (!stride) {
        add(x, "nvml.processes", SN_HEALTH_WARN,
            "the driver's process list has a layout doctor does not know; "
            "list the processes with nvidia-smi and report the driver "
            "version",
            "%u compute process%s listed in entries of no known size "
            "(16, 24 or 32 bytes)",
            count, count == 1 ? "" : "es");
        goto out;
    }
    /* recent per-process utilisation samples: the driver keeps the last
     * few seconds, so "no sample with work" means "idle right now" */
    sn__hw_nvml_process_util(n, x->g->handle, MAX_SAMPLES, &samples, &nsamples);
    have_util =
        n->Utilization && n->Utilization(x->g->handle, &util) == NVML_SUCCESS;
    for (unsigned i = 0; i < count; i++) {
        const struct sn__hw_gpu_proc *p = &procs[i];
        double gib = (double)p->mem_bytes / (1024.0 * 1024 * 1024);
        char state = '?';
        double start = 0;
        bool worked = false;

        if (sn__hw_proc_stat(x->c->root, p->pid, &state, &start)) {
            add(x, "nvml.processes", SN_HEALTH_FAIL,
                "memory held for a process that no longer exists (zombie "
                "occupancy: the scheduler sees the GPU busy): find its "
                "container or parent, end it; if the memory stays held, "
                "reset the GPU (nvidia-smi -r). Run doctor in the host's PID "
                "namespace, or a live process in another one looks dead",
                "pid %u holds %.1f GiB but /proc/%u does not exist", p->pid,
                gib, p->pid);
            problems++;
            continue;
        }
        if (state == 'Z' || state == 'X') {
            add(x, "nvml.processes", SN_HEALTH_FAIL,
                "the process is a zombie whose parent has not reaped it: "
                "end the parent; reset the GPU if the memory stays held",
                "pid %u holds %.1f GiB and is in state %c", p->pid, gib, state);
            problems++;
            continue;
        }
        for (unsigned s = 0; s < nsamples; s++)
            if (samples[s].pid == p->pid &&
                (samples[s].smUtil > 0 || samples[s].memUtil > 0))
                worked = true;
        if (!worked && have_util && util.gpu == 0 && up > 0 &&
            up - start >= x->c->cfg->idle_after) {
            char age[32];
            sn__health_fmt_age(up - start, age, sizeof(age));
            add(x, "nvml.processes", SN_HEALTH_WARN,
                "a process holds memory and does no work: a hung or "
                "forgotten job keeps the GPU from the scheduler; check what "
                "it waits for (py-spy, gdb) and end it if it is stuck",
                "pid %u (state %c) holds %.1f GiB, running %s, no GPU work "
                "in the recent samples and the GPU at 0%%",
                p->pid, state, gib, age);
            problems++;
        }
    }
    if (!problems)
        add(x, "nvml.processes", SN_HEALTH_PASS, NULL,
            "%u compute process%s, all alive%s", count, count == 1 ? "" : "es",
            have_util ? (util.gpu > 0 ? " and the GPU busy" : "") : "");
out:
    free(samples);
    free(procs);
}

/* Listen for XID events on every GPU for cfg->xid_wait_ms, then report
 * each GPU's. Earlier XIDs are in the kernel log (kernel.log check). */
static void check_xids(struct hctx *c)
{
    const struct sn__hw_nvml *n = c->nvml;
    nvmlEventSet_t set = NULL;
    struct {
        size_t gpu;
        unsigned xid;
    } *ev = NULL;
    size_t nev = 0, cap = 0;
    unsigned wait = c->cfg->xid_wait_ms;
    struct timespec t0, t1;
    bool registered = false;

    if (!n->EventCreate || !n->EventRegister || !n->EventWait ||
        !n->EventFree || n->EventCreate(&set) != NVML_SUCCESS) {
        sn_health_report_add(c->rep, "nvml.xid", SN_HEALTH_SKIP, "node", NULL,
                             "NVML events unavailable: XIDs only from the "
                             "kernel log");
        return;
    }
    for (size_t i = 0; i < c->ngpus; i++)
        if (!c->gpus[i].lost &&
            n->EventRegister(c->gpus[i].handle, nvmlEventTypeXidCriticalError,
                             set) == NVML_SUCCESS)
            registered = true;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (registered && nev < MAX_EVENTS) {
        nvmlEventData_t data;
        unsigned left;
        double spent;

        clock_gettime(CLOCK_MONOTONIC, &t1);
        spent = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
                (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
        left = spent >= wait ? 0 : (unsigned)(wait - spent);
        memset(&data, 0, sizeof(data));
        if (n->EventWait(set, &data, left) != NVML_SUCCESS)
            break; /* timeout: nothing more */
        if (!(data.eventType & nvmlEventTypeXidCriticalError))
            continue;
        for (size_t i = 0; i < c->ngpus; i++) {
            if (c->gpus[i].handle != (void *)data.device)
                continue;
            SN_GROW(ev, cap, nev + 1);
            ev[nev].gpu = i;
            ev[nev].xid = (unsigned)data.eventData;
            nev++;
        }
    }
    n->EventFree(set);
    for (size_t i = 0; i < c->ngpus; i++) {
        struct gpu_ctx x = {c, n, &c->gpus[i], ""};
        enum sn_health_status st = SN_HEALTH_PASS;
        const char *remedy = NULL;
        char list[512] = "";
        size_t seen = 0;

        if (c->gpus[i].lost)
            continue;
        gpu_subject(&x);
        for (size_t e = 0; e < nev; e++) {
            const struct hxid *info;
            size_t len = strlen(list);
            if (ev[e].gpu != i)
                continue;
            info = sn__health_xid(ev[e].xid);
            seen++;
            snprintf(list + len, sizeof(list) - len, "%sXID %u (%s)",
                     len ? ", " : "", ev[e].xid, info->meaning);
            if (info->status > st) {
                st = info->status;
                remedy = info->remedy;
            }
        }
        if (seen)
            add(&x, "nvml.xid", st, remedy, "%s", list);
        else if (registered)
            add(&x, "nvml.xid", SN_HEALTH_PASS, NULL,
                "no XID in %u ms of listening (earlier ones are in the "
                "kernel log)",
                wait);
    }
    if (!registered)
        sn_health_report_add(c->rep, "nvml.xid", SN_HEALTH_SKIP, "node", NULL,
                             "no GPU accepted XID event registration");
    free(ev);
}

/* GPUs on the PCI bus that NVML does not list: fallen off the bus, held
 * by another driver (vfio), or failed to initialise; and GPUs NVML counts
 * but cannot open. A lost GPU gives no PCI address, so when the lost ones
 * match the unlisted ones in number, each unlisted GPU is reported once,
 * as lost. */
static void check_devices(struct hctx *c)
{
    size_t on_bus = 0, missing = 0, unlisted = 0, lost = 0;
    bool merged;

    for (size_t i = 0; i < c->npci; i++) {
        const struct hpci *p = &c->pci[i];
        if (p->kind == HPCI_ACCEL && p->vendor == 0x10de && !p->is_vf) {
            on_bus++;
            unlisted += !sn__health_gpu_find(c, p->bdf);
        }
    }
    for (size_t i = 0; i < c->ngpus; i++)
        lost += c->gpus[i].lost && !c->gpus[i].bdf[0];
    merged = lost > 0 && lost == unlisted;
    for (size_t i = 0; i < c->npci; i++) {
        const struct hpci *p = &c->pci[i];
        char subject[256];

        if (p->kind != HPCI_ACCEL || p->vendor != 0x10de || p->is_vf ||
            sn__health_gpu_find(c, p->bdf))
            continue;
        missing++;
        sn__hw_pci_subject(p, subject, sizeof(subject));
        if (merged)
            sn_health_report_add(
                c->rep, "nvml.devices", SN_HEALTH_FAIL, subject,
                "NVML counts the GPU but cannot reach it: read the kernel "
                "log (XID 79, 154), reset the GPU or reboot the node",
                "on the PCI bus; NVML counts it but cannot open it: lost or "
                "needing a reset");
        else
            sn_health_report_add(
                c->rep, "nvml.devices", SN_HEALTH_FAIL, subject,
                "the GPU is on the PCI bus but the driver does not manage "
                "it: read the kernel log for XID 79 or initialisation "
                "errors, check which driver holds it (lspci -k), reset or "
                "reboot",
                "on the PCI bus (driver %s) but not among NVML's %zu GPU%s",
                p->driver[0] ? p->driver : "none", c->ngpus,
                c->ngpus == 1 ? "" : "s");
    }
    for (size_t i = 0; i < c->ngpus && !merged; i++) {
        const struct hgpu *g = &c->gpus[i];
        char subject[256];

        if (!g->lost)
            continue;
        missing++;
        if (g->bdf[0])
            snprintf(subject, sizeof(subject), "%s gpu%u", g->bdf, g->index);
        else
            snprintf(subject, sizeof(subject), "gpu%u (address unknown)",
                     g->index);
        sn_health_report_add(c->rep, "nvml.devices", SN_HEALTH_FAIL, subject,
                             "NVML cannot reach the GPU: read the kernel log "
                             "(XID 79, 154), reset the GPU or reboot",
                             "NVML lists it but it is lost or needs a reset "
                             "(%s)",
                             g->name);
    }
    if (!missing)
        sn_health_report_add(
            c->rep, "nvml.devices", SN_HEALTH_PASS, "node", NULL,
            "%zu GPU%s in NVML, %zu NVIDIA GPU%s on the PCI "
            "bus; driver %s",
            c->ngpus, c->ngpus == 1 ? "" : "s", on_bus, on_bus == 1 ? "" : "s",
            c->driver_version[0] ? c->driver_version : "?");
}

int sn__health_probe_nvml(struct hctx *c, struct sn_error *err)
{
    (void)err;
    if (!c->nvml) {
        const char *lib = c->cfg->nvml_library;
        size_t gpus = 0;
        bool broken;
        for (size_t i = 0; i < c->npci; i++)
            if (c->pci[i].kind == HPCI_ACCEL && c->pci[i].vendor == 0x10de)
                gpus++;
        /* no NVML with NVIDIA GPUs on the bus is a broken driver install
         * (unless NVML was turned off on purpose); without them it is just
         * a node without NVIDIA GPUs */
        broken = gpus > 0 && lib && *lib;
        sn_health_report_add(
            c->rep, "nvml.library", broken ? SN_HEALTH_FAIL : SN_HEALTH_SKIP,
            "node",
            broken ? "install or repair the NVIDIA driver (its libnvidia-ml "
                     "must match the kernel module); nvidia-smi shows the "
                     "same error"
                   : NULL,
            "%s; %zu NVIDIA GPU%s on the PCI bus: GPU checks skipped",
            c->nvml_skip, gpus, gpus == 1 ? "" : "s");
        return SN_OK;
    }
    check_devices(c);
    for (size_t i = 0; i < c->ngpus; i++) {
        struct gpu_ctx x = {c, c->nvml, &c->gpus[i], ""};

        if (c->gpus[i].lost)
            continue;
        gpu_subject(&x);
        check_ecc(&x);
        check_memory_repair(&x);
        check_throttle(&x);
        check_power(&x);
        check_clocks(&x);
        check_temperature(&x);
        check_nvlink(&x);
        check_processes(&x);
    }
    check_xids(c);
    return SN_OK;
}

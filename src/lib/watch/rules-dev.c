/* rules-dev.c: the watch rules on power, devices and links: PSU
 * efficiency and feed balance, GPU memory held by dead or idle processes,
 * devices missing between the bus, NVML and the spec, links trained down
 * or flapping, and the GPU's own error reports (XID, ECC, row remapping,
 * hardware slowdown). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/store.h"

#include "rules-int.h"

#define PSU_MIN_LOAD 0.05    /* efficiency below 5% load is not meaningful */
#define PSU_MIN_W 50.0       /* when the capacity is not known */
#define PSU_NOISE 0.005      /* least sigma of an efficiency: half a point */
#define FEED_MIN_W 100.0     /* feeds under this are idle: not compared */
#define FEED_VOLT_TOL 0.03   /* default voltage tolerance between feeds */
#define ZOMBIE_D_S 300.0     /* D state this long holds the memory hostage */
#define SLOWDOWN_HOLD_S 60.0 /* hardware slowdown held this long */
#define GIB (1024.0 * 1024.0 * 1024.0)

/* NVML clock event reasons (nvml.h, ops-telemetry.md 3.4): HW slowdown,
 * HW thermal slowdown, HW power brake slowdown. */
#define REASON_HW_SLOWDOWN 0x8ull
#define REASON_HW_THERMAL 0x40ull
#define REASON_HW_POWER_BRAKE 0x80ull

static void gpu_subject(const struct sn__watch_gpu *g, char *buf, size_t size)
{
    if (g->bus[0])
        snprintf(buf, size, "gpu %s", g->bus);
    else
        snprintf(buf, size, "gpu %d", g->index);
}

/* The memory of key: v[0..] of a state of this rule's own. */
static double *memo(struct sn__rules_ctx *c, enum sn__rule_id rule,
                    const char *subject)
{
    char key[200];
    struct sn__state *s;

    snprintf(key, sizeof(key), "%s/%s", sn__watch_rule_table[rule].name,
             subject);
    s = sn__rules_state(c->r, key);
    return s ? s->u.v : NULL;
}

/* ---- power ------------------------------------------------------------ */

static double psu_eff(const struct sn__watch_psu *p)
{
    double min = isfinite(p->capacity_w) && p->capacity_w > 0
                     ? PSU_MIN_LOAD * p->capacity_w
                     : PSU_MIN_W;

    if (!isfinite(p->input_w) || !isfinite(p->output_w) || p->input_w < min)
        return NAN;
    return p->output_w / p->input_w;
}

static void psu_efficiency(struct sn__rules_ctx *c)
{
    const struct sn__watch_obs *obs = c->obs;
    const double drop =
        sn__watch_rule_table[SN__RULE_PSU_EFFICIENCY_LOW].threshold;
    double *peers = sn_xcalloc(obs->npsus + 1, sizeof(double));
    char subject[160];

    for (size_t i = 0; i < obs->npsus; i++) {
        const struct sn__watch_psu *p = &obs->psus[i];
        double e = psu_eff(p), med = NAN, score;
        size_t np = 0;
        if (!isfinite(e))
            continue;
        /* supernode_psu_efficiency_ratio is the BMC collector's */
        for (size_t k = 0; k < obs->npsus; k++)
            if (k != i && isfinite(psu_eff(&obs->psus[k])))
                peers[np++] = psu_eff(&obs->psus[k]);
        if (np >= 2)
            med = sn__rules_median(peers, np);
        snprintf(subject, sizeof(subject), "psu %s", p->psu);
        score = sn__rules_slow(c, SN__RULE_PSU_EFFICIENCY_LOW, subject, e,
                               PSU_NOISE, -1);
        if (isfinite(med) && e < med - drop)
            sn__rules_hit(c, SN__RULE_PSU_EFFICIENCY_LOW, NULL, SN__HIT_PSU,
                          p->psu, subject, e,
                          "psu %s converts at %.1f%%, %.1f points below the "
                          "median %.1f%% of its %zu peers (%.0f W in, %.0f W "
                          "out)",
                          p->psu, 100 * e, 100 * (med - e), 100 * med, np,
                          p->input_w, p->output_w);
        else if (score >= 1)
            sn__rules_hit(c, SN__RULE_PSU_EFFICIENCY_LOW, NULL, SN__HIT_PSU,
                          p->psu, subject, e,
                          "psu %s converts at %.1f%%, below its own history "
                          "(drift score %.1f; %.0f W in, %.0f W out)",
                          p->psu, 100 * e, score, p->input_w, p->output_w);
    }
    free(peers);
}

struct feed {
    const char *name;
    double w, v;
    size_t nv;
};

static void feed_balance(struct sn__rules_ctx *c)
{
    const struct sn__watch_obs *obs = c->obs;
    const double tol = sn__watch_rule_table[SN__RULE_FEED_IMBALANCE].threshold;
    struct feed *f = sn_xcalloc(obs->npsus + 1, sizeof(*f));
    size_t nf = 0, nvf = 0, lo = 0, hi = 0, vlo = 0, vhi = 0;
    double sum = 0, vsum = 0;
    char subject[160];

    for (size_t i = 0; i < obs->npsus; i++) {
        const struct sn__watch_psu *p = &obs->psus[i];
        size_t k = 0;
        if (!p->feed[0])
            continue;
        while (k < nf && strcmp(f[k].name, p->feed))
            k++;
        if (k == nf)
            f[nf++].name = p->feed;
        if (isfinite(p->input_w))
            f[k].w += p->input_w;
        if (isfinite(p->input_v) && p->input_v > 0) {
            f[k].v += p->input_v;
            f[k].nv++;
        }
    }
    for (size_t k = 0; k < nf; k++) {
        f[k].v = f[k].nv ? f[k].v / (double)f[k].nv : NAN;
        sum += f[k].w;
        lo = f[k].w < f[lo].w ? k : lo;
        hi = f[k].w > f[hi].w ? k : hi;
        if (isfinite(f[k].v)) {
            vsum += f[k].v;
            nvf++;
            vlo = !isfinite(f[vlo].v) || f[k].v < f[vlo].v ? k : vlo;
            vhi = !isfinite(f[vhi].v) || f[k].v > f[vhi].v ? k : vhi;
        }
    }
    if (nf >= 2 && sum / (double)nf >= FEED_MIN_W &&
        (f[hi].w - f[lo].w) / (sum / (double)nf) > tol) {
        /* the feed furthest from the mean is the one named; of two, the
         * one carrying more than its share */
        size_t odd =
            nf == 2 || f[hi].w - sum / (double)nf >= sum / (double)nf - f[lo].w
                ? hi
                : lo;
        snprintf(subject, sizeof(subject), "feed %s", f[odd].name);
        sn__rules_hit(
            c, SN__RULE_FEED_IMBALANCE, NULL, SN__HIT_PSU, f[odd].name, subject,
            (f[hi].w - f[lo].w) / (sum / (double)nf),
            "feeds draw %.0f W (%s) to %.0f W (%s): %.0f%% of "
            "the mean apart (tolerance %.0f%%)",
            f[lo].w, f[lo].name, f[hi].w, f[hi].name,
            100 * (f[hi].w - f[lo].w) / (sum / (double)nf), 100 * tol);
    }
    if (nf >= 2 && isfinite(f[vlo].v) && isfinite(f[vhi].v) && vlo != vhi &&
        (f[vhi].v - f[vlo].v) / (vsum / (double)nvf) > FEED_VOLT_TOL) {
        snprintf(subject, sizeof(subject), "feed %s", f[vlo].name);
        sn__rules_hit(c, SN__RULE_FEED_IMBALANCE, NULL, SN__HIT_PSU,
                      f[vlo].name, subject, f[vlo].v,
                      "feed %s is at %.1f V, feed %s at %.1f V: more than "
                      "%.0f%% apart",
                      f[vlo].name, f[vlo].v, f[vhi].name, f[vhi].v,
                      100 * FEED_VOLT_TOL);
    }
    free(f);
}

void sn__rules_power(struct sn__rules_ctx *c)
{
    psu_efficiency(c);
    feed_balance(c);
}

/* ---- zombie memory ---------------------------------------------------- */

static void zombie_proc(struct sn__rules_ctx *c, const struct sn__watch_gpu *g,
                        const struct sn__watch_proc *p)
{
    const double idle_s =
        sn__watch_rule_table[SN__RULE_GPU_ZOMBIE_MEMORY].threshold;
    char gs[96], subject[160];
    double util = isfinite(p->sm_util) ? p->sm_util : g->util, *v;
    const char *why = NULL;

    if (!(p->mem_bytes > 0))
        return;
    gpu_subject(g, gs, sizeof(gs));
    snprintf(subject, sizeof(subject), "%s pid %u", gs, p->pid);
    v = memo(c, SN__RULE_GPU_ZOMBIE_MEMORY, subject);
    if (!v)
        return;
    /* v[0]: since when in D state, v[1]: since when idle (0: not) */
    v[0] = p->state == 'D' ? (v[0] > 0 ? v[0] : c->obs->now + 1e-9) : 0;
    v[1] = util == 0 ? (v[1] > 0 ? v[1] : c->obs->now + 1e-9) : 0;
    if (p->state == 0)
        why = "is gone";
    else if (p->state == 'Z')
        why = "is a zombie";
    else if (v[0] > 0 && c->obs->now - v[0] >= ZOMBIE_D_S)
        why = "has been in D state (uninterruptible) for over 5 minutes";
    else if (v[1] > 0 && c->obs->now - v[1] >= idle_s)
        why = "has been idle (no SM activity) for over 10 minutes";
    if (why)
        sn__rules_hit(c, SN__RULE_GPU_ZOMBIE_MEMORY, NULL, SN__HIT_GPU, g->bus,
                      subject, p->mem_bytes,
                      "pid %u holds %.2f GiB on %s and %s", p->pid,
                      p->mem_bytes / GIB, gs, why);
}

/* ---- missing devices -------------------------------------------------- */

static bool pci_is_nvidia_gpu(const struct sn__watch_pcidev *d)
{
    /* PCI class 03 (display): 0300 VGA, 0302 3D controller; vendor 10de */
    return d->vendor == 0x10de &&
           (d->class_code == 0x0300 || d->class_code == 0x0302);
}

static bool nvml_has(const struct sn__watch_obs *obs, const char *bdf)
{
    for (size_t i = 0; i < obs->ngpus; i++)
        if (sn_strcaseeq(obs->gpus[i].bus, bdf))
            return true;
    return false;
}

static void missing_gpus(struct sn__rules_ctx *c, size_t *npci)
{
    const struct sn__watch_obs *obs = c->obs;
    char subject[160];

    *npci = 0;
    for (size_t i = 0; i < obs->npci; i++) {
        const struct sn__watch_pcidev *d = &obs->pci[i];
        double *seen;
        if (!pci_is_nvidia_gpu(d))
            continue;
        (*npci)++;
        snprintf(subject, sizeof(subject), "gpu %s", d->bdf);
        seen = memo(c, SN__RULE_DEVICE_MISSING, subject);
        if (seen)
            seen[0] = obs->now; /* last seen on the bus */
        if (obs->nvml && !nvml_has(obs, d->bdf))
            sn__rules_hit(c, SN__RULE_DEVICE_MISSING, NULL, SN__HIT_GPU, d->bdf,
                          subject, 0,
                          "gpu %s is on the PCI bus but NVML does not list "
                          "it",
                          d->bdf);
    }
    for (size_t i = 0; i < obs->ngpus; i++) {
        const struct sn__watch_gpu *g = &obs->gpus[i];
        double *seen;
        gpu_subject(g, subject, sizeof(subject));
        seen = memo(c, SN__RULE_DEVICE_MISSING, subject);
        if (seen && !g->lost)
            seen[0] = obs->now;
        if (g->lost)
            sn__rules_hit(c, SN__RULE_DEVICE_MISSING, NULL, SN__HIT_GPU, g->bus,
                          subject, 0,
                          "%s is lost: NVML answers GPU_IS_LOST (fallen off "
                          "the bus)",
                          subject);
    }
}

/* A GPU seen in an earlier interval (kept in the store) and now neither
 * on the bus nor in NVML has gone: said until it is back, or for a week
 * (SN__STATE_EXPIRE_S) if it was taken out on purpose. */
static void gone_gpus(struct sn__rules_ctx *c, size_t npci)
{
    struct sn__watch_rules *r = c->r;
    const struct sn__watch_obs *obs = c->obs;
    static const char prefix[] = "device_missing/gpu ";
    struct sn__state *s;

    if (!obs->nvml && !npci)
        return; /* neither collector answered: no news is not a loss */
    for (size_t i = 0;; i++) {
        char key[128];
        s = NULL;
        /* walk the map by probing each known key: the map owns them */
        if (!sn__rules_state_at(r, i, key, sizeof(key), &s))
            break;
        if (strncmp(key, prefix, sizeof(prefix) - 1) || !s ||
            s->u.v[0] >= obs->now || s->u.v[0] <= 0)
            continue;
        sn__rules_hit(c, SN__RULE_DEVICE_MISSING, NULL, SN__HIT_GPU,
                      key + sizeof(prefix) - 1, key + 15, 0,
                      "%s was last seen %.0f s ago and is neither on the "
                      "PCI bus nor in NVML",
                      key + 15, obs->now - s->u.v[0]);
    }
}

static void missing_counts(struct sn__rules_ctx *c, size_t npci)
{
    const struct sn__watch_obs *obs = c->obs;
    int want = sn__rules_expect_gpus(c->r), nics = sn__rules_expect_nics(c->r);
    size_t have = npci > (size_t)(obs->nvml_count > 0 ? obs->nvml_count : 0)
                      ? npci
                      : (size_t)obs->nvml_count;
    size_t fabric = 0, seen_links = 0;

    if (obs->nvml && (size_t)obs->nvml_count < npci)
        sn__rules_hit(c, SN__RULE_DEVICE_MISSING, NULL, SN__HIT_OTHER, "",
                      "gpus", (double)obs->nvml_count,
                      "%zu NVIDIA GPUs on the PCI bus, %d in NVML", npci,
                      obs->nvml_count);
    if (obs->pci_read) {
        int rc = sn__watch_gauge(
            c->m, "supernode_pci_gpus",
            "NVIDIA GPUs on the PCI bus (vendor 0x10de, display or 3D "
            "controller class); absent when the bus was not read",
            NULL, 0, (double)npci, c->err);
        if (rc && !c->rc)
            c->rc = rc;
    }
    /* no GPU on a bus that was read, and no NVML, is the worst case of
     * all, not an absence of news */
    if (want > 0 && (obs->nvml || obs->pci_read || npci) &&
        have < (size_t)want) {
        char nv[32] = "not loaded";
        if (obs->nvml)
            snprintf(nv, sizeof(nv), "%d", obs->nvml_count);
        sn__rules_hit(c, SN__RULE_DEVICE_MISSING, NULL, SN__HIT_OTHER, "",
                      "gpus", (double)have,
                      "%zu of %d GPUs found (PCI bus %zu, NVML %s)", have, want,
                      npci, nv);
    }
    /* fabric NICs: InfiniBand ports and Ethernet of 100 Gb/s or more (a
     * management port is slower) */
    for (size_t i = 0; i < obs->nlinks; i++) {
        const struct sn__watch_link *l = &obs->links[i];
        if (l->kind == SN_WATCH_PCIE)
            continue;
        seen_links++;
        if (l->kind == SN_WATCH_IB || l->max_speed >= 100e9)
            fabric++;
    }
    if (nics > 0 && seen_links && fabric < (size_t)nics)
        sn__rules_hit(c, SN__RULE_NIC_MISSING, NULL, SN__HIT_OTHER, "", "nics",
                      (double)fabric, "%zu of %d fabric NIC ports found",
                      fabric, nics);
}

void sn__rules_devices(struct sn__rules_ctx *c)
{
    const struct sn__watch_obs *obs = c->obs;
    size_t npci = 0;
    char subject[160];

    for (size_t i = 0; i < obs->ngpus; i++)
        for (size_t k = 0; k < obs->gpus[i].nprocs && k < SN_WATCH_PROCS_MAX;
             k++)
            zombie_proc(c, &obs->gpus[i], &obs->gpus[i].procs[k]);
    missing_gpus(c, &npci);
    gone_gpus(c, npci);
    missing_counts(c, npci);
    for (size_t i = 0; i < obs->nklog; i++) {
        const struct sn__watch_klog *k = &obs->klog[i];
        if (k->kind != SN_WATCH_KLOG_OFFBUS)
            continue;
        snprintf(subject, sizeof(subject), "gpu %s", k->dev);
        sn__rules_hit(c, SN__RULE_DEVICE_MISSING, NULL, SN__HIT_GPU, k->dev,
                      subject, 0, "kernel: %s", k->text);
    }
}

/* ---- links ------------------------------------------------------------ */

/* A PCIe GPU link drops its speed at idle to save power (ASPM, the
 * driver's link speed management): its speed is judged only under load;
 * its width always. */
static bool gpu_idle(const struct sn__watch_obs *obs, const char *bdf)
{
    for (size_t i = 0; i < obs->ngpus; i++)
        if (sn_strcaseeq(obs->gpus[i].bus, bdf))
            return !(obs->gpus[i].util > 0);
    return false;
}

static const char *link_kind(enum sn__watch_link_kind k)
{
    return k == SN_WATCH_PCIE ? "pcie" : k == SN_WATCH_IB ? "ib" : "nic";
}

/* Flapping: a counter that grows by two or more at once, or grows again
 * within the window after it grew, holds for the window after. v[0] the
 * last value, v[1] when it last grew, v[2] until when it holds. */
static void flap(struct sn__rules_ctx *c, const char *subject, const char *part,
                 double count, const char *what)
{
    const double win = sn__watch_rule_table[SN__RULE_LINK_FLAPPING].threshold;
    double *v, now = c->obs->now;

    if (!isfinite(count) || !(v = memo(c, SN__RULE_LINK_FLAPPING, subject)))
        return;
    if (v[1] == 0 && v[0] == 0 && v[2] == 0) {
        v[0] = count; /* first sight: the count so far is history */
        v[1] = -INFINITY;
        return;
    }
    if (count > v[0]) {
        if (count - v[0] >= 2 || now - v[1] <= win)
            v[2] = now + win;
        v[1] = now;
    }
    v[0] = count;
    if (now < v[2])
        sn__rules_hit(c, SN__RULE_LINK_FLAPPING, NULL, SN__HIT_OTHER, part,
                      subject, count, "%s: %s grew to %.0f within %.0f s",
                      subject, what, count, win);
}

void sn__rules_links(struct sn__rules_ctx *c)
{
    const struct sn__watch_obs *obs = c->obs;
    char subject[160];

    for (size_t i = 0; i < obs->nlinks; i++) {
        const struct sn__watch_link *l = &obs->links[i];
        bool slow = isfinite(l->speed) && isfinite(l->max_speed) &&
                    l->max_speed > 0 && l->speed < 0.999 * l->max_speed;
        bool narrow =
            l->max_width > 0 && l->width > 0 && l->width < l->max_width;
        snprintf(subject, sizeof(subject), "%s %s", link_kind(l->kind), l->dev);
        if (l->kind == SN_WATCH_PCIE && !strcmp(l->what, "gpu") &&
            gpu_idle(obs, l->dev))
            slow = false;
        if (l->up && (slow || narrow))
            sn__rules_hit(c, SN__RULE_LINK_DEGRADED, NULL, SN__HIT_OTHER,
                          l->dev, subject, narrow ? l->width : l->speed,
                          "%s%s%s trained at %g of %g%s, x%d of x%d", subject,
                          l->what[0] ? " " : "", l->what, l->speed,
                          l->max_speed,
                          l->kind == SN_WATCH_PCIE ? " GT/s" : " bit/s",
                          l->width, l->max_width);
        flap(c, subject, l->dev, l->down_events, "link down events");
    }
    for (size_t i = 0; i < obs->ngpus; i++) {
        const struct sn__watch_gpu *g = &obs->gpus[i];
        char gs[96];
        gpu_subject(g, gs, sizeof(gs));
        snprintf(subject, sizeof(subject), "%s nvlink", gs);
        flap(c, subject, g->bus, g->nvlink_recovery, "NVLink recoveries");
    }
}

/* ---- the GPU's own reports -------------------------------------------- */

static bool xid_critical(unsigned code)
{
    static const unsigned crit[] = {48, 63, 64, 74, 79, 94, 95, 119, 120};

    for (size_t i = 0; i < SN_ARRAY_LEN(crit); i++)
        if (crit[i] == code)
            return true;
    return false;
}

/* An XID holds for the rule's hold time after it was seen (NVML's event
 * or the kernel log's line): v[0] until when, v[1] the last code, v[2]
 * whether that code is critical. */
static void xid_seen(struct sn__rules_ctx *c, const char *subject,
                     const char *part, unsigned code)
{
    const double hold = sn__watch_rule_table[SN__RULE_GPU_XID].threshold;
    double *v = memo(c, SN__RULE_GPU_XID, subject);

    if (!v)
        return;
    /* a critical code is not hidden by a milder one after it */
    if (!(v[0] > c->obs->now && v[2] > 0 && !xid_critical(code))) {
        v[1] = code;
        v[2] = xid_critical(code);
    }
    v[0] = c->obs->now + hold;
}

static void xid_hold(struct sn__rules_ctx *c, const char *subject,
                     const char *part)
{
    double *v = memo(c, SN__RULE_GPU_XID, subject);

    if (v && c->obs->now < v[0])
        sn__rules_hit(c, SN__RULE_GPU_XID, v[2] > 0 ? "critical" : "warning",
                      SN__HIT_GPU, part, subject, v[1],
                      "%s reported XID %.0f%s", subject, v[1],
                      v[2] > 0 ? " (critical: reset the GPU or drain the "
                                 "node)"
                               : "");
}

static void gpu_state(struct sn__rules_ctx *c, const struct sn__watch_gpu *g,
                      const char *subject)
{
    const uint64_t hw =
        REASON_HW_SLOWDOWN | REASON_HW_THERMAL | REASON_HW_POWER_BRAKE;
    double *v;

    if (g->ecc_uncorrected > 0)
        sn__rules_hit(c, SN__RULE_GPU_ECC_UNCORRECTED, NULL, SN__HIT_GPU,
                      g->bus, subject, g->ecc_uncorrected,
                      "%s counted %.0f uncorrected ECC errors since the "
                      "driver loaded",
                      subject, g->ecc_uncorrected);
    if (g->remap_failure > 0 || g->remap_pending > 0)
        sn__rules_hit(
            c, SN__RULE_GPU_ROW_REMAP,
            g->remap_failure > 0 ? "critical" : "warning", SN__HIT_GPU, g->bus,
            subject, g->remap_failure > 0, "%s: %s", subject,
            g->remap_failure > 0 ? "a row remap failed: replace the GPU"
                                 : "a row remap is pending: reset the GPU");
    v = memo(c, SN__RULE_GPU_HW_SLOWDOWN, subject);
    if (!v || !g->reasons_read)
        return;
    /* v[0]: since when a hardware reason holds (0: none) */
    v[0] = g->reasons & hw ? (v[0] > 0 ? v[0] : c->obs->now + 1e-9) : 0;
    if (v[0] > 0 && c->obs->now - v[0] >= SLOWDOWN_HOLD_S)
        sn__rules_hit(c, SN__RULE_GPU_HW_SLOWDOWN, NULL, SN__HIT_GPU, g->bus,
                      subject, (double)(g->reasons & hw),
                      "%s held by%s%s%s for %.0f s (%.1f C, %.0f W)", subject,
                      g->reasons & REASON_HW_SLOWDOWN ? " hw_slowdown" : "",
                      g->reasons & REASON_HW_THERMAL ? " hw_thermal" : "",
                      g->reasons & REASON_HW_POWER_BRAKE ? " hw_power_brake"
                                                         : "",
                      c->obs->now - v[0], g->temp_c, g->power_w);
}

void sn__rules_gpu_events(struct sn__rules_ctx *c)
{
    const struct sn__watch_obs *obs = c->obs;
    char subject[160];

    for (size_t i = 0; i < obs->ngpus; i++) {
        const struct sn__watch_gpu *g = &obs->gpus[i];
        gpu_subject(g, subject, sizeof(subject));
        for (size_t k = 0; k < g->nxids && k < SN_WATCH_XIDS_MAX; k++)
            xid_seen(c, subject, g->bus, g->xids[k]);
        gpu_state(c, g, subject);
    }
    /* the kernel's lines name the device by its bus id */
    for (size_t i = 0; i < obs->nklog; i++) {
        const struct sn__watch_klog *k = &obs->klog[i];
        if (k->kind != SN_WATCH_KLOG_XID || k->code <= 0)
            continue;
        snprintf(subject, sizeof(subject), "gpu %s", k->dev);
        xid_seen(c, subject, k->dev, (unsigned)k->code);
    }
    for (size_t i = 0; i < obs->ngpus; i++) {
        gpu_subject(&obs->gpus[i], subject, sizeof(subject));
        xid_hold(c, subject, obs->gpus[i].bus);
    }
    for (size_t i = 0; i < obs->nklog; i++) {
        const struct sn__watch_klog *k = &obs->klog[i];
        if (k->kind != SN_WATCH_KLOG_XID || k->code <= 0 ||
            nvml_has(obs, k->dev))
            continue;
        snprintf(subject, sizeof(subject), "gpu %s", k->dev);
        xid_hold(c, subject, k->dev);
    }
}

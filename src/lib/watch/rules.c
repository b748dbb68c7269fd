/* rules.c: the watch rules' engine (watch-int.h): the one table of rules,
 * the slow state per series (EWMA baseline and CUSUM, kept in the store
 * so that a restart loses nothing), the alerts of each evaluation, and
 * an event stored when a rule starts to hold and resolved when it stops.
 * The checks themselves are in rules-cool.c and rules-dev.c. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/health.h"
#include "sn/plan.h"
#include "sn/store.h"

#include "rules-int.h"

/* XIDs that need the GPU reset, the node rebooted or the part replaced:
 * the community rule's allow-list (dcgm-exporter PR #309, the
 * nvidia_gpu_exporter PR #474 tiers) as ops-telemetry.md 2.1 collects
 * them, drawn from NVIDIA's XID catalogue: 48 double-bit ECC, 63/64 row
 * remapping, 74 NVLink, 79 fallen off the bus, 94/95 contained and
 * uncontained ECC, 119/120 GSP. */
#define XID_CRITICAL "48|63|64|74|79|94|95|119|120"

/* clang-format off */
const struct sn__watch_rule_def sn__watch_rule_table[SN__RULE_COUNT] = {
    [SN__RULE_COOLANT_FLOW_LOW] = {
        "coolant_flow_low", "warning", 0.2, "ratio below the peers' median",
        300, "a cold plate's coolant flow is below the design's share of the "
        "node's loop, or 20% below the median of the cold plates of its kind "
        "in its loop",
        "check the branch's quick disconnects, valve and filter; compare its "
        "flow with the CDU's",
        NULL, "gpu|cpu", "loop, kind", 3},
    [SN__RULE_GPU_THERMAL_CREEP] = {
        "gpu_thermal_creep", "warning", 0.2, "ratio above the peers' median",
        900, "a GPU's thermal resistance (temperature over coolant supply, "
        "per watt) creeps above its own history or its loop's peers",
        "inspect the GPU's cold plate and its branch's flow before it "
        "throttles",
        "supernode_rule_active{rule=\"gpu_thermal_creep\"} == 1"},
    [SN__RULE_SENSOR_DRIFT] = {
        "sensor_drift", "warning", 8, "CUSUM sigmas", 900,
        "a sensor departs slowly from the consensus of its group",
        "recalibrate or replace the sensor; do not act on its readings",
        "supernode_rule_active{rule=\"sensor_drift\"} == 1"},
    [SN__RULE_PSU_EFFICIENCY_LOW] = {
        "psu_efficiency_low", "warning", 0.03, "efficiency below peers",
        1800, "a power supply's live efficiency (output over input) falls "
        "below its peers or its own history",
        "schedule the PSU's replacement; check its fans and inlet "
        "temperature",
        "supernode_psu_output_power_watts / supernode_psu_input_power_watts < on "
        "(instance, job) group_left () (quantile by (instance, job) (0.5, "
        "supernode_psu_output_power_watts / supernode_psu_input_power_watts) - %g) or "
        "supernode_rule_active{rule=\"psu_efficiency_low\"} == 1"},
    [SN__RULE_FEED_IMBALANCE] = {
        "feed_imbalance", "warning", 0.10, "power spread over mean", 900,
        "power or voltage between the feeds of a node differ beyond the "
        "tolerance (10% power, 3% voltage)",
        "check the PSUs on the feed that stands out and the feed's breaker "
        "and PDU",
        "label_replace((max by (instance, job) (sum by (instance, job, feed) "
        "(supernode_psu_input_power_watts)) - min by (instance, job) (sum by "
        "(instance, job, feed) (supernode_psu_input_power_watts))) / avg by "
        "(instance, job) (sum by (instance, job, feed) "
        "(supernode_psu_input_power_watts)) > %g, \"subject\", \"feeds\", \"\", "
        "\"\") or supernode_rule_active{rule=\"feed_imbalance\"} == 1"},
    [SN__RULE_GPU_ZOMBIE_MEMORY] = {
        "gpu_zombie_memory", "warning", 600, "seconds idle", 0,
        "GPU memory held by a process that is gone, a zombie, stuck in D "
        "state or idle past the threshold",
        "kill the process (or its parent), or reset the GPU; tell the "
        "scheduler the GPU is not free",
        "supernode_rule_active{rule=\"gpu_zombie_memory\"} == 1"},
    [SN__RULE_DEVICE_MISSING] = {
        "device_missing", "critical", 0, "devices", 0,
        "GPUs on the PCI bus, in NVML and in the spec disagree, or a GPU was "
        "lost",
        "reseat or replace the device; check the kernel log for 'fallen off "
        "the bus'",
        "supernode_rule_active{rule=\"device_missing\"} == 1%s"},
    [SN__RULE_NIC_MISSING] = {
        "nic_missing", "critical", 0, "ports", 0,
        "fewer fabric NIC ports (InfiniBand, Ethernet of 100 Gb/s or more) "
        "than the spec gives a node",
        "check the ports with ibstat or ip link, their cables, transceivers "
        "and switch ports, and the NIC's driver (dmesg: mlx5_core); reseat "
        "or replace a card whose ports are gone",
        "supernode_rule_active{rule=\"nic_missing\"} == 1"},
    [SN__RULE_LINK_DEGRADED] = {
        "link_degraded", "warning", 0, "lanes or speed", 300,
        "a PCIe, NIC or InfiniBand link trained below its speed or width",
        "reseat the card or cable; check the riser and retimer",
        "supernode_rule_active{rule=\"link_degraded\"} == 1"},
    [SN__RULE_LINK_FLAPPING] = {
        "link_flapping", "warning", 3600, "seconds window", 0,
        "NVLink recoveries or port down events grow within the window",
        "replace the cable or transceiver; check the switch port's errors",
        "supernode_rule_active{rule=\"link_flapping\"} == 1"},
    [SN__RULE_GPU_XID] = {
        "gpu_xid", "warning", 600, "seconds held", 0,
        "a GPU reported an XID error",
        "look the code up in NVIDIA's XID catalogue; critical codes need "
        "the GPU reset or the node drained",
        "label_replace(increase(supernode_gpu_xid_total{xid%s\""
        XID_CRITICAL "\"}[10m]) > 0, \"subject\", \"gpu $1\", "
        "\"pci_bus_id\", \"(.*)\")"},
    [SN__RULE_GPU_ECC_UNCORRECTED] = {
        "gpu_ecc_uncorrected", "critical", 0, "errors", 0,
        "a GPU counted uncorrected ECC errors since the driver loaded",
        "drain the node and reset the GPU; replace it if the errors return",
        "label_replace(increase(supernode_gpu_ecc_uncorrected_errors_total"
        "[10m]) > 0, \"subject\", \"gpu $1\", \"pci_bus_id\", \"(.*)\")"},
    [SN__RULE_GPU_ROW_REMAP] = {
        "gpu_row_remap", "critical", 0, "", 0,
        "a GPU has a row remap pending (reset needed) or a remap failed",
        "reset the GPU for a pending remap; replace it after a failure",
        "label_replace(supernode_gpu_row_remap_pending == 1 or "
        "supernode_gpu_row_remap_failure == 1, \"subject\", \"gpu $1\", "
        "\"pci_bus_id\", \"(.*)\")"},
    [SN__RULE_GPU_HW_SLOWDOWN] = {
        "gpu_hw_slowdown", "warning", 0.1, "share of the time", 300,
        "a GPU is held by hardware slowdown, thermal slowdown or power "
        "brake",
        "check the GPU's cooling and the power shelf; power brake is the "
        "board's external signal",
        "label_replace(rate(supernode_gpu_throttle_seconds_total{reason=~"
        "\"hw_slowdown|hw_thermal|hw_power_brake\"}[5m]) > %g, "
        "\"subject\", \"gpu $1\", \"pci_bus_id\", \"(.*)\")"},
    [SN__RULE_CONDENSATION_RISK] = {
        "condensation_risk", "critical", 1, "kelvin above the dew point",
        120, "coolant supply or a cold plate within 1 K of, or below, the "
        "room's dew point",
        "raise the supply temperature set point or dry the room before "
        "water condenses on the cold plates",
        "label_replace(supernode_coolant_supply_temperature_celsius < on (instance, job) "
        "group_left () (supernode_room_dew_point_celsius + %g), "
        "\"subject\", \"branch $1\", \"branch\", \"(.*)\")"},
    [SN__RULE_LEAK_DETECTED] = {
        "leak_detected", "critical", 0, "", 0,
        "a leak detector is not OK",
        "isolate the tray's coolant and power it down; inspect the "
        "manifold",
        "label_replace(supernode_leak_detector_ok == 0, \"subject\", "
        "\"leak detector $1\", \"detector\", \"(.*)\")"},
};
/* clang-format on */

#define STATES_MAX 65536 /* series one node's rules keep at most */
#define OPEN_MAX 4096    /* alerts that may hold at once */

/* An event ends when its rule has not held for this long: a rule that
 * flickers across its threshold from one interval to the next makes one
 * event, not one per interval. Its resolve time is when it first stopped
 * holding. (supernode_rule_active follows each interval as it is.) */
#define EVENT_CLEAR_S 300.0

/* Event writes that failed (a full disk, a store busy past its timeout,
 * one made read-only) are kept and tried again each interval, oldest
 * first, so an event that starts while the disk is full is stored once
 * there is room. Bounded: so many writes and so many bytes of state
 * (each state is at most 64 KiB, SN_STORE_EVENT_STATE_MAX; most are
 * under 2 KiB), past which new ones are dropped and counted. */
#define UNSAVED_MAX 1024
#define UNSAVED_BYTES (8u << 20)

/* One write still to do: the whole event (start, and its end when it has
 * ended by then), or the end of one stored already (ev.id > 0). */
struct unsaved {
    uint64_t seq;             /* which open event it is, for its end */
    struct sn_store_event ev; /* ev.state owned */
};

struct open_ev {
    enum sn__rule_id rule;
    char subject[128];
    int64_t id;       /* the stored event, 0 when none */
    uint64_t unsaved; /* its start waits in the unsaved list: that seq */
    bool seen;
    double absent_since; /* NaN while the rule holds */
};

struct sn__watch_rules {
    const struct sn_spec *spec;
    struct sn_store *st;
    char host[64];
    double design_lpm;
    int expect_gpus, expect_nics;
    struct sn__state *states;
    size_t nstates, cap_states;
    size_t *index; /* open addressing: position + 1, 0 empty */
    size_t index_cap;
    struct sn__hit *hits;
    size_t nhits, cap_hits;
    struct sn_watch_alert *alerts;
    size_t nalerts, cap_alerts;
    struct open_ev *open;
    size_t nopen, cap_open;
    double evals, store_errors;
    struct unsaved *later; /* oldest first */
    size_t nlater, cap_later, later_bytes;
    uint64_t next_seq;
    double dropped; /* writes past the bound, never made */
    double now;
};

/* ---- the state map -------------------------------------------------- */

static void index_put(struct sn__watch_rules *r, size_t pos)
{
    const char *k = r->states[pos].key;
    size_t h = sn_hash64(k, strlen(k), 0) & (r->index_cap - 1);

    while (r->index[h])
        h = (h + 1) & (r->index_cap - 1);
    r->index[h] = pos + 1;
}

static void index_rebuild(struct sn__watch_rules *r)
{
    size_t need = 64;

    while (need < 2 * (r->nstates + 1))
        need *= 2;
    free(r->index);
    r->index = sn_xcalloc(need, sizeof(*r->index));
    r->index_cap = need;
    for (size_t i = 0; i < r->nstates; i++)
        index_put(r, i);
}

struct sn__state *sn__rules_state(struct sn__watch_rules *r, const char *key)
{
    size_t h, len = strlen(key);
    struct sn__state *s;

    if (len >= sizeof(s->key))
        len = sizeof(s->key) - 1;
    if (!r->index_cap)
        index_rebuild(r);
    /* over the kept length: a long key is kept cut, and found again */
    h = sn_hash64(key, len, 0) & (r->index_cap - 1);
    for (; r->index[h]; h = (h + 1) & (r->index_cap - 1)) {
        s = &r->states[r->index[h] - 1];
        if (!strncmp(s->key, key, len) && s->key[len] == '\0') {
            s->updated = r->now;
            return s;
        }
    }
    if (r->nstates >= STATES_MAX)
        return NULL;
    SN_GROW(r->states, r->cap_states, r->nstates + 1);
    s = &r->states[r->nstates++];
    memset(s, 0, sizeof(*s));
    memcpy(s->key, key, len);
    s->updated = r->now;
    s->used = true;
    if (2 * (r->nstates + 1) > r->index_cap)
        index_rebuild(r);
    else
        index_put(r, r->nstates - 1);
    return s;
}

bool sn__rules_state_at(struct sn__watch_rules *r, size_t i, char *key,
                        size_t size, struct sn__state **out)
{
    if (i >= r->nstates)
        return false;
    sn_strlcpy(key, r->states[i].key, size);
    *out = &r->states[i];
    return true;
}

/* Drop what no check touched for a week (a GPU taken out, a process long
 * gone). */
static void states_expire(struct sn__watch_rules *r)
{
    size_t w = 0;

    for (size_t i = 0; i < r->nstates; i++)
        if (r->now - r->states[i].updated <= SN__STATE_EXPIRE_S)
            r->states[w++] = r->states[i];
    if (w != r->nstates) {
        r->nstates = w;
        index_rebuild(r);
    }
}

/* Keys of the memory of a process live only as long as the agent: a pid
 * is not a part, and a restart sees the process afresh. */
static bool persisted(const struct sn__state *s)
{
    return strncmp(s->key, "gpu_zombie_memory/", 18) != 0;
}

static int states_save(struct sn__watch_rules *r, struct sn_error *err)
{
    struct sn_store_watch_state *rows;
    size_t n = 0;
    int rc;

    if (!r->st || !r->nstates)
        return SN_OK;
    rows = sn_xcalloc(r->nstates, sizeof(*rows));
    for (size_t i = 0; i < r->nstates; i++) {
        const struct sn__state *s = &r->states[i];
        if (s->updated != r->now || !persisted(s))
            continue;
        sn_strlcpy(rows[n].key, s->key, sizeof(rows[n].key));
        memcpy(rows[n].values, s->u.v, sizeof(s->u.v));
        rows[n].n = SN_STORE_WATCH_VALUES;
        rows[n].updated = s->updated;
        n++;
    }
    rc = sn_store_watch_state_put(r->st, r->host, rows, n, err);
    free(rows);
    return rc;
}

static int states_load(struct sn__watch_rules *r, struct sn_error *err)
{
    struct sn_store_watch_state *rows = NULL;
    size_t n = 0;
    int rc = sn_store_watch_state_get(r->st, r->host, &rows, &n, err);

    for (size_t i = 0; !rc && i < n && r->nstates < STATES_MAX; i++) {
        struct sn__state *s;
        SN_GROW(r->states, r->cap_states, r->nstates + 1);
        s = &r->states[r->nstates++];
        memset(s, 0, sizeof(*s));
        sn_strlcpy(s->key, rows[i].key, sizeof(s->key));
        for (size_t k = 0; k < rows[i].n && k < SN_STORE_WATCH_VALUES; k++)
            s->u.v[k] = rows[i].values[k];
        s->updated = rows[i].updated;
        s->used = true;
    }
    free(rows);
    index_rebuild(r);
    return rc;
}

/* ---- the slow detector ------------------------------------------------ */

/* Feed one bucket's mean m into s at time now. Warm-up: the baseline is
 * the plain mean and variance of the first buckets. Then the CUSUM sums
 * of z = (m - mean) / sigma (Page 1954) with slack k, and the EWMA
 * baseline (Roberts 1959) moves only while neither sum holds evidence,
 * so that a slow shift is not learned as normal while it builds up. */
static void slow_feed(struct sn__slow *s, double m, double dt, double floor)
{
    double sigma, z, a;

    if (s->n < SN__SLOW_WARMUP) {
        double old = s->mean;
        s->n += 1;
        s->mean += (m - old) / s->n;
        s->var += ((m - old) * (m - s->mean) - s->var) / s->n;
        return;
    }
    sigma = fmax(sqrt(fmax(s->var, 0)), floor);
    z = (m - s->mean) / sigma;
    z = fmax(-SN__CUSUM_ZMAX, fmin(SN__CUSUM_ZMAX, z));
    s->hi = fmin(fmax(0, s->hi + z - SN__CUSUM_K), 2 * SN__CUSUM_H);
    s->lo = fmin(fmax(0, s->lo - z - SN__CUSUM_K), 2 * SN__CUSUM_H);
    if (s->hi == 0 && s->lo == 0) {
        a = 1 - exp(-fmax(dt, 0) / SN__SLOW_TAU_S);
        s->var = (1 - a) * (s->var + a * (m - s->mean) * (m - s->mean));
        s->mean += a * (m - s->mean);
    }
}

double sn__rules_slow(struct sn__rules_ctx *c, enum sn__rule_id rule,
                      const char *subject, double x, double floor, int dir)
{
    char key[160];
    struct sn__state *st;
    struct sn__slow *s;
    double score;

    if (!isfinite(x))
        return NAN;
    snprintf(key, sizeof(key), "%s/%s", sn__watch_rule_table[rule].name,
             subject);
    st = sn__rules_state(c->r, key);
    if (!st)
        return NAN;
    s = &st->u.slow;
    if (s->cnt <= 0 || !isfinite(s->t0)) {
        s->sum = 0;
        s->cnt = 0;
        s->t0 = c->obs->now;
    }
    s->sum += x;
    s->cnt += 1;
    if (c->obs->now - s->t0 >= SN__SLOW_BUCKET_S) {
        slow_feed(s, s->sum / s->cnt, c->obs->now - s->t0, floor);
        s->cnt = 0;
    }
    if (s->n < SN__SLOW_WARMUP)
        return NAN;
    score = (dir > 0   ? s->hi
             : dir < 0 ? s->lo
                       : fmax(s->hi, s->lo)) /
            SN__CUSUM_H;
    {
        struct sn_metrics_label l[] = {
            {"rule", sn__watch_rule_table[rule].name}, {"subject", subject}};
        int rc = sn__watch_gauge(
            c->m, "supernode_drift_score",
            "Drift score of a slow detector (EWMA baseline and CUSUM of the "
            "normalised shift): 1 at the rule's threshold, 0 when the "
            "series sits on its baseline",
            l, 2, score, c->err);
        if (rc && !c->rc)
            c->rc = rc;
    }
    return score;
}

int sn__watch_spec_gpus(const struct sn_spec *spec)
{
    struct sn_health_node node;
    struct sn_error err = {0};

    if (!spec)
        return -1;
    /* the node: section, as doctor and check read it ({accelerators: 0}
     * on a CPU host); a section that does not parse was refused when the
     * spec was loaded for them, here the design's per_node stands */
    if (!sn_health_node_from_spec(spec, &node, &err))
        return node.accelerators;
    return spec->scaleup.per_node > 0 ? spec->scaleup.per_node : 0;
}

bool sn__rules_kind_in(const char *kind, const char *set)
{
    size_t n = strlen(kind);

    while (set && *set) {
        const char *bar = strchr(set, '|');
        size_t k = bar ? (size_t)(bar - set) : strlen(set);
        if (k == n && !strncmp(set, kind, n))
            return true;
        set = bar ? bar + 1 : NULL;
    }
    return false;
}

double sn__rules_median(double *x, size_t n)
{
    return n ? sn_stats_median(x, n) : NAN;
}

/* ---- hits, alerts and events ----------------------------------------- */

void sn__rules_hit(struct sn__rules_ctx *c, enum sn__rule_id rule,
                   const char *severity, int kind, const char *part,
                   const char *subject, double value, const char *fmt, ...)
{
    struct sn__watch_rules *r = c->r;
    struct sn__hit *h;
    va_list ap;

    for (size_t i = 0; i < r->nhits; i++)
        if (r->hits[i].rule == rule && !strcmp(r->hits[i].a.subject, subject))
            return; /* the first reason found stands */
    if (r->nhits >= OPEN_MAX)
        return;
    SN_GROW(r->hits, r->cap_hits, r->nhits + 1);
    h = &r->hits[r->nhits++];
    memset(h, 0, sizeof(*h));
    h->rule = rule;
    h->kind = kind;
    sn_strlcpy(h->part, part ? part : "", sizeof(h->part));
    sn_strlcpy(h->a.rule, sn__watch_rule_table[rule].name, sizeof(h->a.rule));
    sn_strlcpy(h->a.severity,
               severity ? severity : sn__watch_rule_table[rule].severity,
               sizeof(h->a.severity));
    sn_strlcpy(h->a.subject, subject, sizeof(h->a.subject));
    h->a.value = value;
    va_start(ap, fmt);
    vsnprintf(h->a.message, sizeof(h->a.message), fmt, ap);
    va_end(ap);
}

static void json_gpu(struct sn_json *j, const struct sn__watch_gpu *g)
{
    sn_json_obj_begin(j);
    sn_json_kint(j, "index", g->index);
    sn_json_kstr(j, "pci_bus_id", g->bus);
    sn_json_knum(j, "temp_c", g->temp_c);
    sn_json_knum(j, "temp_slowdown_c", g->temp_slowdown_c);
    sn_json_knum(j, "power_w", g->power_w);
    sn_json_knum(j, "power_limit_w", g->power_limit_w);
    sn_json_knum(j, "sm_clock_hz", g->sm_clock_hz);
    sn_json_knum(j, "mem_clock_hz", g->mem_clock_hz);
    sn_json_kint(j, "clock_reasons", (long long)g->reasons);
    sn_json_knum(j, "util", g->util);
    sn_json_knum(j, "mem_used_bytes", g->mem_used_bytes);
    sn_json_obj_end(j);
}

static void json_branch(struct sn_json *j, const struct sn__watch_coolant *b)
{
    sn_json_obj_begin(j);
    sn_json_kstr(j, "branch", b->branch);
    sn_json_kstr(j, "loop", b->loop);
    sn_json_knum(j, "flow_lpm", b->flow_lpm);
    sn_json_knum(j, "supply_c", b->supply_c);
    sn_json_knum(j, "return_c", b->return_c);
    sn_json_obj_end(j);
}

/* The state of the moment for an event: the device's clocks,
 * temperatures and power, and the flow and temperatures of its loop (the
 * GPU's branch when known, else every branch); at most 16 of each. */
static void state_json(const struct sn__watch_rules *r,
                       const struct sn__watch_obs *obs, const struct sn__hit *h,
                       struct sn_buf *out)
{
    const struct sn__watch_coolant *own = NULL;
    struct sn_json j;
    size_t k = 0;

    sn_json_init(&j, out, false);
    sn_json_obj_begin(&j);
    sn_json_knum(&j, "time", obs->now);
    sn_json_kstr(&j, "host", r->host);
    sn_json_knum(&j, "value", h->a.value);
    sn_json_knum(&j, "room_c", obs->room_c);
    sn_json_knum(&j, "room_humidity", obs->room_humidity);
    sn_json_key(&j, "gpus");
    sn_json_arr_begin(&j);
    for (size_t i = 0; i < obs->ngpus && k < 16; i++) {
        const struct sn__watch_gpu *g = &obs->gpus[i];
        if (h->kind == SN__HIT_GPU && strcmp(g->bus, h->part))
            continue;
        if (h->kind == SN__HIT_GPU)
            own = sn__rules_gpu_branch(obs, g);
        json_gpu(&j, g);
        k++;
    }
    sn_json_arr_end(&j);
    sn_json_key(&j, "coolant");
    sn_json_arr_begin(&j);
    k = 0;
    for (size_t i = 0; i < obs->ncoolant && k < 16; i++) {
        const struct sn__watch_coolant *b = &obs->coolant[i];
        if (own && strcmp(b->loop, own->loop))
            continue; /* the GPU's loop only */
        json_branch(&j, b);
        k++;
    }
    sn_json_arr_end(&j);
    sn_json_key(&j, "psus");
    sn_json_arr_begin(&j);
    for (size_t i = 0; h->kind == SN__HIT_PSU && i < obs->npsus && i < 16;
         i++) {
        const struct sn__watch_psu *p = &obs->psus[i];
        sn_json_obj_begin(&j);
        sn_json_kstr(&j, "psu", p->psu);
        sn_json_kstr(&j, "feed", p->feed);
        sn_json_knum(&j, "input_w", p->input_w);
        sn_json_knum(&j, "output_w", p->output_w);
        sn_json_knum(&j, "input_v", p->input_v);
        sn_json_obj_end(&j);
    }
    sn_json_arr_end(&j);
    sn_json_obj_end(&j);
}

static void store_failed(struct sn__watch_rules *r)
{
    r->store_errors += 1;
}

/* Queue a write behind those waiting; ev's state is copied. Returns its
 * seq, 0 when past the bound (dropped and counted). */
static uint64_t later_push(struct sn__watch_rules *r,
                           const struct sn_store_event *ev)
{
    size_t bytes = ev->state ? strlen(ev->state) + 1 : 0;
    struct unsaved *u;

    if (r->nlater >= UNSAVED_MAX || r->later_bytes + bytes > UNSAVED_BYTES) {
        r->dropped += 1;
        return 0;
    }
    SN_GROW(r->later, r->cap_later, r->nlater + 1);
    u = &r->later[r->nlater++];
    u->seq = ++r->next_seq;
    u->ev = *ev;
    u->ev.state = ev->state ? sn_xstrdup(ev->state) : NULL;
    r->later_bytes += bytes;
    return u->seq;
}

/* Make the waiting writes, oldest first, until one fails: that one and
 * those behind it wait for the next interval (one failure an interval:
 * a store busy for 10 s is not waited on once per event). A write the
 * store refuses as bad input can never be made and is dropped. */
static void later_flush(struct sn__watch_rules *r)
{
    struct sn_error e = {0};
    size_t done = 0;

    for (; done < r->nlater; done++) {
        struct unsaved *u = &r->later[done];
        int rc;
        if (u->ev.id > 0) {
            rc = sn_store_event_resolve(r->st, u->ev.id, u->ev.resolved, &e);
        } else {
            rc = sn_store_event_add(r->st, &u->ev, &e);
            /* the open event it belongs to, if still open, has its id */
            for (size_t k = 0; !rc && k < r->nopen; k++)
                if (r->open[k].unsaved == u->seq) {
                    r->open[k].unsaved = 0;
                    r->open[k].id = u->ev.id;
                }
        }
        if (rc) {
            store_failed(r);
            if (rc != SN_EINPUT)
                break;
            r->dropped += 1;
        }
        r->later_bytes -= u->ev.state ? strlen(u->ev.state) + 1 : 0;
        free(u->ev.state);
    }
    if (done) {
        memmove(r->later, r->later + done,
                (r->nlater - done) * sizeof(*r->later));
        r->nlater -= done;
    }
}

/* An open event ends at `resolved`: its end written behind the waiting
 * writes, or, while its start still waits, given to that write. */
static void end_event(struct sn__watch_rules *r, const struct open_ev *o,
                      double resolved)
{
    if (o->unsaved) {
        for (size_t k = 0; k < r->nlater; k++)
            if (r->later[k].seq == o->unsaved)
                r->later[k].ev.resolved = resolved;
    } else if (o->id > 0) {
        struct sn_store_event ev;
        memset(&ev, 0, sizeof(ev));
        ev.id = o->id;
        ev.resolved = resolved;
        later_push(r, &ev);
    }
}

/* Rising edges: a hit with no open event starts one (stored with the
 * state of the moment); falling: an open event with no hit is resolved
 * now. */
static void edges(struct sn__watch_rules *r, const struct sn__watch_obs *obs)
{
    struct sn_buf b;
    size_t w = 0;

    sn_buf_init(&b);
    for (size_t i = 0; i < r->nopen; i++)
        r->open[i].seen = false;
    for (size_t i = 0; i < r->nhits; i++) {
        const struct sn__hit *h = &r->hits[i];
        struct open_ev *o = NULL;
        for (size_t k = 0; k < r->nopen && !o; k++)
            if (r->open[k].rule == h->rule &&
                !strcmp(r->open[k].subject, h->a.subject))
                o = &r->open[k];
        if (o) {
            o->seen = true;
            o->absent_since = NAN;
            continue;
        }
        SN_GROW(r->open, r->cap_open, r->nopen + 1);
        o = &r->open[r->nopen++];
        memset(o, 0, sizeof(*o));
        o->rule = h->rule;
        sn_strlcpy(o->subject, h->a.subject, sizeof(o->subject));
        o->seen = true;
        o->absent_since = NAN;
        if (r->st) {
            struct sn_store_event ev;
            memset(&ev, 0, sizeof(ev));
            sn_strlcpy(ev.host, r->host, sizeof(ev.host));
            sn_strlcpy(ev.rule, h->a.rule, sizeof(ev.rule));
            sn_strlcpy(ev.severity, h->a.severity, sizeof(ev.severity));
            sn_strlcpy(ev.subject, h->a.subject, sizeof(ev.subject));
            sn_strlcpy(ev.message, h->a.message, sizeof(ev.message));
            ev.value = h->a.value;
            ev.started = obs->now;
            ev.resolved = NAN;
            sn_buf_reset(&b);
            state_json(r, obs, h, &b);
            ev.state = b.data;
            o->unsaved = later_push(r, &ev);
        }
    }
    for (size_t i = 0; i < r->nopen; i++) {
        struct open_ev *o = &r->open[i];
        if (!o->seen && isnan(o->absent_since))
            o->absent_since = obs->now;
        if (o->seen || obs->now - o->absent_since < EVENT_CLEAR_S) {
            r->open[w++] = *o;
            continue;
        }
        if (r->st)
            end_event(r, o, o->absent_since);
    }
    r->nopen = w;
    if (r->st)
        later_flush(r);
    sn_buf_release(&b);
}

/* ---- entry points ----------------------------------------------------- */

double sn__rules_design_flow(const struct sn__watch_rules *r)
{
    return r->design_lpm;
}

int sn__rules_expect_gpus(const struct sn__watch_rules *r)
{
    return r->expect_gpus;
}

int sn__rules_expect_nics(const struct sn__watch_rules *r)
{
    return r->expect_nics;
}

/* Open events of this host from an earlier run: they hold until the
 * first evaluation says otherwise, so a restart neither repeats nor
 * forgets them. */
static int open_load(struct sn__watch_rules *r, struct sn_error *err)
{
    struct sn_store_events_filter f = {
        .since = NAN, .host = r->host, .open = true, .limit = OPEN_MAX};
    struct sn_store_event *ev = NULL;
    size_t n = 0;
    int rc = sn_store_events_list(r->st, &f, &ev, &n, err);

    for (size_t i = 0; !rc && i < n; i++) {
        for (int k = 0; k < SN__RULE_COUNT; k++) {
            if (strcmp(ev[i].rule, sn__watch_rule_table[k].name))
                continue;
            SN_GROW(r->open, r->cap_open, r->nopen + 1);
            memset(&r->open[r->nopen], 0, sizeof(r->open[r->nopen]));
            r->open[r->nopen].rule = (enum sn__rule_id)k;
            sn_strlcpy(r->open[r->nopen].subject, ev[i].subject,
                       sizeof(r->open[r->nopen].subject));
            r->open[r->nopen].id = ev[i].id;
            r->open[r->nopen].absent_since = NAN;
            r->nopen++;
        }
    }
    sn_store_events_release(ev, n);
    return rc;
}

int sn__watch_rules_new(const struct sn_spec *spec, struct sn_store *st,
                        const char *host, struct sn__watch_rules **out,
                        struct sn_error *err)
{
    struct sn__watch_rules *r = sn_xcalloc(1, sizeof(*r));
    int rc = SN_OK;

    *out = NULL;
    r->spec = spec;
    r->st = st;
    sn_str_clean(r->host, sizeof(r->host), host ? host : "", 0);
    if (spec) {
        /* m^3/s to L/min */
        r->design_lpm = sn_plan_branch_flow(spec) * 60e3;
        r->expect_gpus = sn__watch_spec_gpus(spec);
        r->expect_nics =
            spec->scaleout.nics_per_node > 0 ? spec->scaleout.nics_per_node : 0;
    }
    index_rebuild(r);
    if (st)
        rc = states_load(r, err);
    if (!rc && st)
        rc = open_load(r, err);
    if (rc) {
        sn__watch_rules_free(r);
        return rc;
    }
    *out = r;
    return SN_OK;
}

static void add_rule_metrics(struct sn__rules_ctx *c)
{
    struct sn__watch_rules *r = c->r;
    int rc;

    for (size_t i = 0; i < r->nhits; i++) {
        struct sn_metrics_label l[] = {{"rule", r->hits[i].a.rule},
                                       {"severity", r->hits[i].a.severity},
                                       {"subject", r->hits[i].a.subject}};
        rc = sn__watch_gauge(
            c->m, "supernode_rule_active",
            "1 for each watch rule that holds now on a subject (the part "
            "named: branch, gpu, psu, feed, sensor, link, pid); rules that "
            "do not hold are absent",
            l, 3, 1, c->err);
        if (rc && !c->rc)
            c->rc = rc;
        if (!isfinite(r->hits[i].a.value))
            continue;
        rc = sn__watch_gauge(
            c->m, "supernode_rule_value",
            "The reading that made a watch rule hold on a subject, in the "
            "rule's unit (a flow in L/min, the GPUs or NIC ports found), "
            "for the alert's text; absent when the rule does not hold",
            l, 3, r->hits[i].a.value, c->err);
        if (rc && !c->rc)
            c->rc = rc;
    }
    rc = sn__watch_counter(c->m, "supernode_rules_evaluated_total",
                           "Evaluations of the watch rules since the agent "
                           "started",
                           NULL, 0, r->evals, c->err);
    if (rc && !c->rc)
        c->rc = rc;
    rc = sn__watch_gauge(c->m, "supernode_rules_events_pending",
                         "Event starts and ends the rules could not write "
                         "to the results database yet (a full disk, a busy "
                         "or read-only store), kept and tried again each "
                         "interval",
                         NULL, 0, (double)r->nlater, c->err);
    if (rc && !c->rc)
        c->rc = rc;
    rc = sn__watch_counter(c->m, "supernode_rules_events_dropped_total",
                           "Event writes given up since the agent started: "
                           "more waiting than the agent keeps (1024, 8 MiB), "
                           "or refused by the store as bad",
                           NULL, 0, r->dropped, c->err);
    if (rc && !c->rc)
        c->rc = rc;
    rc = sn__watch_counter(c->m, "supernode_rules_store_errors_total",
                           "Events or slow state the rules could not write "
                           "to the results database since the agent "
                           "started",
                           NULL, 0, r->store_errors, c->err);
    if (rc && !c->rc)
        c->rc = rc;
}

int sn__watch_rules_eval(struct sn__watch_rules *r,
                         const struct sn__watch_obs *obs, struct sn_metrics *m,
                         struct sn_error *err)
{
    struct sn_error local = {0};
    struct sn__rules_ctx c = {r, obs, m, err ? err : &local, SN_OK};
    struct sn_error e = {0};

    if (c.err->code != SN_OK)
        *c.err = (struct sn_error){0};
    r->now = obs->now;
    r->nhits = 0;
    sn__rules_cooling(&c);
    sn__rules_sensors(&c);
    sn__rules_power(&c);
    sn__rules_devices(&c);
    sn__rules_links(&c);
    sn__rules_gpu_events(&c);
    edges(r, obs);
    states_expire(r);
    if (states_save(r, &e))
        store_failed(r);
    r->evals += 1;
    SN_GROW(r->alerts, r->cap_alerts, r->nhits + 1);
    for (size_t i = 0; i < r->nhits; i++)
        r->alerts[i] = r->hits[i].a;
    r->nalerts = r->nhits;
    add_rule_metrics(&c);
    return c.rc;
}

size_t sn__watch_rules_active(const struct sn__watch_rules *r,
                              const struct sn_watch_alert **out)
{
    *out = r->alerts;
    return r->nalerts;
}

void sn__watch_rules_free(struct sn__watch_rules *r)
{
    if (!r)
        return;
    free(r->states);
    free(r->index);
    free(r->hits);
    free(r->alerts);
    free(r->open);
    /* one last try at what waits (the store outlives the rules) */
    if (r->st && r->nlater)
        later_flush(r);
    for (size_t i = 0; i < r->nlater; i++)
        free(r->later[i].ev.state);
    free(r->later);
    free(r);
}

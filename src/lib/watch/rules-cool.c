/* rules-cool.c: the watch rules on cooling and sensors: coolant flow per
 * branch against the design and the peers, each GPU's thermal resistance
 * against its loop and its own history, sensors against their group's
 * consensus, condensation against the room's dew point, leaks. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sn/store.h"

#include "rules-int.h"

/* A GPU at less than this share of its power limit is idle or nearly:
 * its temperature rise says more about the coolant than about its cold
 * plate, and the ratio's noise is large. */
#define CREEP_MIN_LOAD 0.3
#define CREEP_MIN_W 100.0     /* when the limit is not known */
#define CREEP_NOISE_REL 0.02  /* least sigma of the ratio: 2% of it */
#define DRIFT_TEMP_NOISE 0.25 /* least sigma of a temperature, K */

/* Magnus formula for the dew point over water, coefficients of Alduchov
 * and Eskridge (1996), "Improved Magnus form approximation of saturation
 * vapor pressure", J. Appl. Meteor. 35, 601-609: a = 17.625, b = 243.04
 * C, within 0.4% for -40..50 C. */
#define MAGNUS_A 17.625
#define MAGNUS_B 243.04

double sn__rules_dew_point(double t, double rh)
{
    double g;

    if (!isfinite(t) || !isfinite(rh) || rh <= 0)
        return NAN;
    g = log(fmin(rh, 1.0)) + MAGNUS_A * t / (MAGNUS_B + t);
    return MAGNUS_B * g / (MAGNUS_A - g);
}

static bool name_is(const char *name, const char *prefix, int n)
{
    size_t k = strlen(prefix);
    char *end;
    long v;

    for (size_t i = 0; i < k; i++)
        if (tolower((unsigned char)name[i]) != prefix[i])
            return false;
    if (!isdigit((unsigned char)name[k]))
        return false;
    v = strtol(name + k, &end, 10);
    return *end == '\0' && v == n;
}

const struct sn__watch_coolant *
sn__rules_gpu_branch(const struct sn__watch_obs *obs,
                     const struct sn__watch_gpu *g)
{
    int base = 1; /* Redfish numbers from 1, unless a "GPU0" is there */

    for (size_t i = 0; i < obs->ncoolant; i++)
        if (name_is(obs->coolant[i].branch, "gpu", 0))
            base = 0;
    for (size_t i = 0; i < obs->ncoolant; i++) {
        const char *b = obs->coolant[i].branch;
        if (name_is(b, "gpu", g->index + base) ||
            (g->bus[0] && strstr(b, g->bus)))
            return &obs->coolant[i];
    }
    return NULL;
}

static void gpu_subject(const struct sn__watch_gpu *g, char *buf, size_t size)
{
    if (g->bus[0])
        snprintf(buf, size, "gpu %s", g->bus);
    else
        snprintf(buf, size, "gpu %d", g->index);
}

static void export(struct sn__rules_ctx *c, const char *name, const char *help,
                   const struct sn_metrics_label *l, size_t n, double v)
{
    int rc;

    if (!isfinite(v))
        return;
    rc = sn__watch_gauge(c->m, name, help, l, n, v, c->err);
    if (rc && !c->rc)
        c->rc = rc;
}

/* ---- coolant flow ----------------------------------------------------- */

/* A cold plate's branch against the design's share of the node's loop
 * and against the median of its peers: the branches of its kind (GPU
 * cold plates with GPU cold plates, CPU with CPU) in its loop, itself
 * included, when there are peers_min of them. A CDU's connectors and
 * manifolds carry a loop's whole flow and are never a cold plate's
 * peers. */
static void flow_low(struct sn__rules_ctx *c)
{
    const struct sn__watch_obs *obs = c->obs;
    const struct sn__watch_rule_def *d =
        &sn__watch_rule_table[SN__RULE_COOLANT_FLOW_LOW];
    double node = sn__rules_design_flow(c->r), design = 0;
    double *peers = sn_xcalloc(obs->ncoolant + 1, sizeof(double));
    size_t nb = 0;
    char subject[128];

    for (size_t i = 0; i < obs->ncoolant; i++)
        nb += isfinite(obs->coolant[i].flow_lpm) &&
              sn__rules_kind_in(obs->coolant[i].kind, d->subjects);
    /* the node's loop shared by the cold plates its BMC shows */
    if (node > 0 && nb)
        design = node / (double)nb;
    for (size_t i = 0; i < obs->ncoolant; i++) {
        const struct sn__watch_coolant *b = &obs->coolant[i];
        size_t np = 0;
        double med;
        if (!isfinite(b->flow_lpm) || !sn__rules_kind_in(b->kind, d->subjects))
            continue;
        snprintf(subject, sizeof(subject), "branch %s", b->branch);
        if (design > 0 && b->flow_lpm < design)
            sn__rules_hit(c, SN__RULE_COOLANT_FLOW_LOW, NULL, SN__HIT_BRANCH,
                          b->branch, subject, b->flow_lpm,
                          "branch %s (%s cold plate): coolant %.2f L/min, "
                          "design %.2f (the node's loop of %.2f L/min over "
                          "its %zu cold plates)",
                          b->branch, b->kind, b->flow_lpm, design, node, nb);
        for (size_t k = 0; k < obs->ncoolant; k++)
            if (isfinite(obs->coolant[k].flow_lpm) &&
                !strcmp(obs->coolant[k].kind, b->kind) &&
                !strcmp(obs->coolant[k].loop, b->loop))
                peers[np++] = obs->coolant[k].flow_lpm;
        if (np < (size_t)d->peers_min)
            continue;
        med = sn__rules_median(peers, np);
        if (b->flow_lpm < (1 - d->threshold) * med)
            sn__rules_hit(c, SN__RULE_COOLANT_FLOW_LOW, NULL, SN__HIT_BRANCH,
                          b->branch, subject, b->flow_lpm,
                          "branch %s (%s cold plate): coolant %.2f L/min, "
                          "%.0f%% below the median %.2f L/min of the %zu %s "
                          "cold plates of its loop",
                          b->branch, b->kind, b->flow_lpm,
                          100 * (1 - b->flow_lpm / med), med, np, b->kind);
    }
    free(peers);
}

/* ---- thermal creep ---------------------------------------------------- */

struct creep {
    const struct sn__watch_gpu *g;
    const char *loop;
    double r, supply;
};

/* The supply temperature against which a GPU's rise is taken: its
 * branch's, else the median of the branches', else the inlet sensors'
 * median, else the room's. */
static double fallback_supply(const struct sn__watch_obs *obs)
{
    size_t n = obs->ncoolant + obs->nsensors + 1, k = 0;
    double *x = sn_xcalloc(n, sizeof(double)), v = NAN;

    for (size_t i = 0; i < obs->ncoolant; i++)
        if (isfinite(obs->coolant[i].supply_c))
            x[k++] = obs->coolant[i].supply_c;
    if (!k)
        for (size_t i = 0; i < obs->nsensors; i++)
            if (obs->sensors[i].kind == SN_WATCH_TEMP &&
                !strcmp(obs->sensors[i].group, "inlet") &&
                isfinite(obs->sensors[i].value))
                x[k++] = obs->sensors[i].value;
    v = k ? sn__rules_median(x, k) : obs->room_c;
    free(x);
    return v;
}

static size_t creep_collect(const struct sn__watch_obs *obs, struct creep *cr)
{
    double fb = fallback_supply(obs);
    size_t n = 0;

    for (size_t i = 0; i < obs->ngpus; i++) {
        const struct sn__watch_gpu *g = &obs->gpus[i];
        const struct sn__watch_coolant *b = sn__rules_gpu_branch(obs, g);
        double lim = g->power_limit_w, sup;
        if (g->lost || !isfinite(g->temp_c) || !isfinite(g->power_w))
            continue;
        if (isfinite(lim) && lim > 0 ? g->power_w < CREEP_MIN_LOAD * lim
                                     : g->power_w < CREEP_MIN_W)
            continue;
        sup = b && isfinite(b->supply_c) ? b->supply_c : fb;
        if (!isfinite(sup))
            continue;
        cr[n].g = g;
        cr[n].loop = b ? b->loop : "";
        cr[n].supply = sup;
        cr[n].r = (g->temp_c - sup) / g->power_w;
        n++;
    }
    return n;
}

static void creep_one(struct sn__rules_ctx *c, const struct creep *cr, size_t n,
                      size_t i, double *peers)
{
    const struct creep *x = &cr[i];
    const double margin =
        sn__watch_rule_table[SN__RULE_GPU_THERMAL_CREEP].threshold;
    char subject[128], key[200], idx[16];
    size_t np = 0;
    double score, med = NAN;
    const struct sn__state *st;
    struct sn_metrics_label l[] = {{"gpu", idx}, {"pci_bus_id", x->g->bus}};

    gpu_subject(x->g, subject, sizeof(subject));
    snprintf(idx, sizeof(idx), "%d", x->g->index);
    export(c, "supernode_gpu_thermal_resistance_kelvin_per_watt",
           "A GPU's temperature rise over its coolant supply (its branch's, "
           "else the branches' median, else the inlet) per watt it draws; "
           "absent below 30% of the power limit",
           l, 2, x->r);
    for (size_t k = 0; k < n; k++)
        if (k != i && !strcmp(cr[k].loop, x->loop))
            peers[np++] = cr[k].r;
    if (np >= 2)
        med = sn__rules_median(peers, np);
    score = sn__rules_slow(c, SN__RULE_GPU_THERMAL_CREEP, subject, x->r,
                           CREEP_NOISE_REL * fabs(x->r), +1);
    if (isfinite(med) && x->r > (1 + margin) * med) {
        sn__rules_hit(c, SN__RULE_GPU_THERMAL_CREEP, NULL, SN__HIT_GPU,
                      x->g->bus, subject, x->r,
                      "%s: %.4f K/W, %.0f%% above its loop's median %.4f "
                      "K/W (%.1f C at %.0f W, supply %.1f C)",
                      subject, x->r, 100 * (x->r / med - 1), med, x->g->temp_c,
                      x->g->power_w, x->supply);
        return;
    }
    if (!(score >= 1))
        return;
    snprintf(key, sizeof(key), "gpu_thermal_creep/%s", subject);
    st = sn__rules_state(c->r, key);
    sn__rules_hit(c, SN__RULE_GPU_THERMAL_CREEP, NULL, SN__HIT_GPU, x->g->bus,
                  subject, x->r,
                  "%s: %.4f K/W against its baseline %.4f K/W (drift score "
                  "%.1f; %.1f C at %.0f W, supply %.1f C, slowdown at %.0f "
                  "C)",
                  subject, x->r, st ? st->u.slow.mean : NAN, score,
                  x->g->temp_c, x->g->power_w, x->supply,
                  x->g->temp_slowdown_c);
}

static void thermal_creep(struct sn__rules_ctx *c)
{
    const struct sn__watch_obs *obs = c->obs;
    struct creep *cr = sn_xcalloc(obs->ngpus + 1, sizeof(*cr));
    double *peers = sn_xcalloc(obs->ngpus + 1, sizeof(double));
    size_t n = creep_collect(obs, cr);

    for (size_t i = 0; i < n; i++)
        creep_one(c, cr, n, i, peers);
    free(peers);
    free(cr);
}

/* ---- dew point and leaks ---------------------------------------------- */

static double median_sensors(const struct sn__watch_obs *obs,
                             enum sn__watch_sensor_kind kind, const char *group)
{
    double *x = sn_xcalloc(obs->nsensors + 1, sizeof(double)), v;
    size_t k = 0;

    for (size_t i = 0; i < obs->nsensors; i++)
        if (obs->sensors[i].kind == kind && isfinite(obs->sensors[i].value) &&
            (!group || !strcmp(obs->sensors[i].group, group)))
            x[k++] = obs->sensors[i].value;
    v = sn__rules_median(x, k);
    free(x);
    return v;
}

static void condensation(struct sn__rules_ctx *c)
{
    const struct sn__watch_obs *obs = c->obs;
    const double margin =
        sn__watch_rule_table[SN__RULE_CONDENSATION_RISK].threshold;
    double t = obs->room_c, rh = obs->room_humidity, dew;
    char subject[160];

    if (!isfinite(t))
        t = median_sensors(obs, SN_WATCH_TEMP, "room");
    if (!isfinite(t))
        t = median_sensors(obs, SN_WATCH_TEMP, "inlet");
    if (!isfinite(rh))
        rh = median_sensors(obs, SN_WATCH_HUMIDITY, NULL);
    dew = sn__rules_dew_point(t, rh);
    if (!isfinite(dew))
        return;
    export(c, "supernode_room_dew_point_celsius",
           "Dew point of the room's air from its temperature and relative "
           "humidity (Magnus formula, Alduchov and Eskridge 1996)",
           NULL, 0, dew);
    for (size_t i = 0; i < obs->ncoolant; i++) {
        const struct sn__watch_coolant *b = &obs->coolant[i];
        if (!isfinite(b->supply_c) || b->supply_c >= dew + margin)
            continue;
        snprintf(subject, sizeof(subject), "branch %s", b->branch);
        sn__rules_hit(c, SN__RULE_CONDENSATION_RISK, NULL, SN__HIT_BRANCH,
                      b->branch, subject, b->supply_c,
                      "branch %s supplies %.1f C; the room's dew point is "
                      "%.1f C (%.1f C, %.0f%% RH)",
                      b->branch, b->supply_c, dew, t, 100 * rh);
    }
    for (size_t i = 0; i < obs->nsensors; i++) {
        const struct sn__watch_sensor *s = &obs->sensors[i];
        if (s->kind != SN_WATCH_TEMP || strcmp(s->group, "coldplate") ||
            !isfinite(s->value) || s->value >= dew + margin)
            continue;
        snprintf(subject, sizeof(subject), "sensor %s/%s", s->chip, s->sensor);
        sn__rules_hit(c, SN__RULE_CONDENSATION_RISK, NULL, SN__HIT_OTHER,
                      s->sensor, subject, s->value,
                      "cold plate %s reads %.1f C; the room's dew point is "
                      "%.1f C",
                      s->label[0] ? s->label : s->sensor, s->value, dew);
    }
}

static void leaks(struct sn__rules_ctx *c)
{
    char subject[160];

    for (size_t i = 0; i < c->obs->nleaks; i++) {
        const struct sn__watch_leak *d = &c->obs->leaks[i];
        /* Redfish LeakDetector.DetectorState: OK, Warning, Critical;
         * Unavailable and Absent say nothing about water */
        if (!d->state[0] || sn_strcaseeq(d->state, "OK") ||
            sn_strcaseeq(d->state, "Unavailable") ||
            sn_strcaseeq(d->state, "Absent"))
            continue;
        snprintf(subject, sizeof(subject), "leak detector %s", d->detector);
        sn__rules_hit(c, SN__RULE_LEAK_DETECTED,
                      sn_strcaseeq(d->state, "Warning") ? "warning" : NULL,
                      SN__HIT_OTHER, d->detector, subject, 1,
                      "leak detector %s reports %s", d->detector, d->state);
    }
}

void sn__rules_cooling(struct sn__rules_ctx *c)
{
    flow_low(c);
    thermal_creep(c);
    condensation(c);
    leaks(c);
}

/* ---- sensor drift ----------------------------------------------------- */

static double drift_floor(enum sn__watch_sensor_kind kind, double med)
{
    switch (kind) {
    case SN_WATCH_TEMP:
        return DRIFT_TEMP_NOISE;
    case SN_WATCH_VOLT:
        return fmax(0.005 * fabs(med), 1e-3); /* 0.5%: a PMBus ADC */
    default:
        return fmax(0.02 * fabs(med), 1e-6);
    }
}

static void drift_group(struct sn__rules_ctx *c, size_t first, double *x)
{
    const struct sn__watch_obs *obs = c->obs;
    const struct sn__watch_sensor *s0 = &obs->sensors[first];
    size_t n = 0;
    double med;
    char subject[160];

    for (size_t i = first; i < obs->nsensors; i++)
        if (obs->sensors[i].kind == s0->kind &&
            !strcmp(obs->sensors[i].group, s0->group) &&
            isfinite(obs->sensors[i].value))
            x[n++] = obs->sensors[i].value;
    if (n < 3) /* two cannot say which one drifts */
        return;
    med = sn__rules_median(x, n);
    for (size_t i = first; i < obs->nsensors; i++) {
        const struct sn__watch_sensor *s = &obs->sensors[i];
        double d, score;
        if (s->kind != s0->kind || strcmp(s->group, s0->group) ||
            !isfinite(s->value))
            continue;
        d = s->value - med;
        snprintf(subject, sizeof(subject), "sensor %s/%s", s->chip, s->sensor);
        score = sn__rules_slow(c, SN__RULE_SENSOR_DRIFT, subject, d,
                               drift_floor(s->kind, med), 0);
        if (score >= 1)
            sn__rules_hit(c, SN__RULE_SENSOR_DRIFT, NULL, SN__HIT_OTHER,
                          s->sensor, subject, d,
                          "%s (%s) reads %+.2f from the median %.2f of its "
                          "group '%s' of %zu (drift score %.1f)",
                          subject, s->label[0] ? s->label : "no label", d, med,
                          s->group, n, score);
    }
}

void sn__rules_sensors(struct sn__rules_ctx *c)
{
    const struct sn__watch_obs *obs = c->obs;
    double *x = sn_xcalloc(obs->nsensors + 1, sizeof(double));

    /* each group once: at the first sensor of its (group, kind) */
    for (size_t i = 0; i < obs->nsensors; i++) {
        const struct sn__watch_sensor *s = &obs->sensors[i];
        bool first = s->group[0] != '\0';
        for (size_t k = 0; first && k < i; k++)
            if (obs->sensors[k].kind == s->kind &&
                !strcmp(obs->sensors[k].group, s->group))
                first = false;
        if (first)
            drift_group(c, i, x);
    }
    free(x);
}

/* diagnose.c: from results to findings: each result against the design,
 * the baseline and its peers; slow pairs localised to links; verdicts per
 * device, pair and link; findings with evidence and the next step, in a
 * fixed order. The pairs and their localisation are in pairs.c. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag-int.h"

/* ---- names and values ---------------------------------------------------- */

const char *sn_finding_kind_name(enum sn_finding_kind k)
{
    switch (k) {
    case SN_FIND_LINK:
        return "link";
    case SN_FIND_SYSTEMIC:
        return "systemic";
    case SN_FIND_UNEXPLAINED:
        return "unexplained-pair";
    case SN_FIND_DEVICE:
        return "device";
    case SN_FIND_PAIR:
        return "pair";
    case SN_FIND_GROUP:
        return "collective";
    case SN_FIND_MISSING:
        return "missing";
    case SN_FIND_HEALTH:
        return "health";
    default:
        return "?";
    }
}

bool sn__diag_cpu(const struct sn_diag_input *in)
{
    return in->backend && !strcmp(in->backend, "cpu");
}

void sn__diag_device_label(const struct sn_topo *t, bool cpu, uint32_t rank,
                           char *buf, size_t size)
{
    char name[160];
    char *dot;

    if (!t || rank >= t->naccel) {
        snprintf(buf, size, cpu ? "cpu-rank%u" : "rank%u", (unsigned)rank);
        return;
    }
    sn_topo_node_name(t, t->accel[rank], name, sizeof(name));
    if (!cpu) {
        sn_strlcpy(buf, name, size);
        return;
    }
    /* the rank stands where the design puts its accelerator, but it is
     * a CPU process: its place, not the device's name */
    dot = strrchr(name, '.');
    if (dot)
        *dot = '\0';
    snprintf(buf, size, "%s%scpu-rank%u", dot ? name : "", dot ? "." : "",
             (unsigned)rank);
}

static void result_names(const struct sn_topo *t, bool cpu,
                         const struct sn_result *r, char *subject, size_t ssize,
                         char *label, size_t lsize)
{
    char a[96], b[96];

    sn_result_subject(r, subject, ssize);
    switch (r->subject) {
    case SN_SUBJECT_DEVICE:
        sn__diag_device_label(t, cpu, r->a, label, lsize);
        break;
    case SN_SUBJECT_PAIR:
        sn__diag_device_label(t, cpu, r->a, a, sizeof(a));
        sn__diag_device_label(t, cpu, r->b, b, sizeof(b));
        snprintf(label, lsize, "%s~%s", a, b);
        break;
    default:
        if (t && r->b == t->naccel && r->a == 0)
            snprintf(label, lsize, "all %zu accelerators", t->naccel);
        else
            snprintf(label, lsize, "%u ranks from rank%u", (unsigned)r->b,
                     (unsigned)r->a);
        break;
    }
}

/* ---- peers ------------------------------------------------------------------
 */

/* Which peers a result is compared with: same test, parameters and kind
 * of subject; pairs also by the fabric between them (inside one
 * scale-up domain or across the network). */
static int peer_class(const struct sn_topo *t, const struct sn_result *r)
{
    const struct sn_node *a, *b;

    if (r->subject != SN_SUBJECT_PAIR || !t || r->a >= t->naccel ||
        r->b >= t->naccel)
        return 0;
    a = &t->nodes[t->accel[r->a]];
    b = &t->nodes[t->accel[r->b]];
    if (t->spec && t->spec->scaleup.fabric == SN_FABRIC_NONE)
        return 2;
    return a->supernode == b->supernode ? 1 : 2;
}

struct peer_key {
    const struct sn_result *r;
    int cls;
    size_t idx;
};

static int peer_cmp(const void *x, const void *y)
{
    const struct peer_key *a = x, *b = y;
    int c = strcmp(a->r->test, b->r->test);

    if (c)
        return c;
    c = strcmp(a->r->params, b->r->params);
    if (c)
        return c;
    if (a->r->subject != b->r->subject)
        return a->r->subject < b->r->subject ? -1 : 1;
    if (a->cls != b->cls)
        return a->cls < b->cls ? -1 : 1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

static bool same_peers(const struct peer_key *a, const struct peer_key *b)
{
    return !strcmp(a->r->test, b->r->test) &&
           !strcmp(a->r->params, b->r->params) &&
           a->r->subject == b->r->subject && a->cls == b->cls;
}

/* Compare each member of a group [from, to) with the group's median and
 * MAD. Values are oriented (larger is better) and, where the design
 * gives an expectation for every member, normalised by it so that pairs
 * over different routes compare. */
static void compare_group(const struct sn_diag_config *cfg,
                          const struct peer_key *keys, size_t from, size_t to,
                          const double *expected,
                          struct sn_diag_cmp (*cmp)[SN_BASIS_COUNT])
{
    size_t n = to - from;
    double *v = sn_xmalloc(n * sizeof(double));
    double *tmp = sn_xmalloc(n * sizeof(double));
    bool normalise = expected != NULL;
    double med, sigma;

    for (size_t i = from; i < to && normalise; i++)
        if (!(expected[keys[i].idx] > 0))
            normalise = false;
    for (size_t i = from; i < to; i++) {
        const struct sn_result *r = keys[i].r;
        double x = r->stats.median;
        if (normalise)
            x /= expected[keys[i].idx];
        v[i - from] = r->lower_better ? (x > 0 ? 1.0 / x : 0.0) : x;
    }
    memcpy(tmp, v, n * sizeof(double));
    med = sn_stats_median(tmp, n);
    memcpy(tmp, v, n * sizeof(double));
    sigma = sn_stats_sigma(tmp, n);
    if (sigma < cfg->noise_floor * fabs(med))
        sigma = cfg->noise_floor * fabs(med);
    for (size_t i = from; i < to; i++) {
        struct sn_diag_cmp *c = &cmp[keys[i].idx][SN_BASIS_PEERS];
        const struct sn_result *r = keys[i].r;
        double x = v[i - from], scale = 1.0;
        memset(c, 0, sizeof(*c));
        if (med <= 0 || r->stats.n == 0)
            continue;
        c->valid = true;
        c->npeers = n;
        c->ratio = x / med;
        c->z = sigma > 0 ? (x - med) / sigma : 0.0;
        /* the reference in the result's own unit */
        if (normalise)
            scale = expected[keys[i].idx];
        if (r->lower_better) {
            c->reference = normalise ? scale / med : 1.0 / med;
            c->noise = c->reference * sigma / med;
        } else {
            c->reference = med * scale;
            c->noise = sigma * scale;
        }
        c->lo = c->reference - cfg->peer_z * c->noise;
        c->hi = c->reference + cfg->peer_z * c->noise;
        if (c->z < -cfg->peer_z)
            c->severity = c->ratio < cfg->peer_fail ? SN_SEV_FAIL : SN_SEV_WARN;
    }
    free(v);
    free(tmp);
}

static int cmp_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x < y) - (x > y);
}

/* A group of equivalent results and what its best quarter reaches of
 * the design. */
struct group {
    size_t from, to; /* in the sorted keys */
    double reach;    /* oriented measured / expected of the best
                        quarter (median); NaN without a design */
    double expected; /* the design value (median over the group) */
    double measured; /* the best quarter's measured value */
    /* against the baseline: what the best quarter reaches of its
     * baseline (oriented, NaN without one) and its standardised shift */
    double bl_reach;
    double bl_z;
};

/* The design comparison of a group: each member against what the design
 * lets it reach, given what the best quarter of the group reaches. */
static void design_group(const struct sn_diag_config *cfg,
                         const struct peer_key *keys, struct group *g,
                         const double *expected,
                         struct sn_diag_cmp (*cmp)[SN_BASIS_COUNT])
{
    size_t n = g->to - g->from, top;
    double *e, *x, scale;

    g->reach = NAN;
    if (!expected)
        return;
    for (size_t i = g->from; i < g->to; i++)
        if (!(expected[keys[i].idx] > 0) || keys[i].r->stats.n == 0)
            return;
    e = sn_xmalloc(n * sizeof(double));
    x = sn_xmalloc(n * sizeof(double));
    for (size_t i = g->from; i < g->to; i++) {
        const struct sn_result *r = keys[i].r;
        double ex = expected[keys[i].idx], m = r->stats.median;
        e[i - g->from] = r->lower_better ? (m > 0 ? ex / m : 0.0) : m / ex;
        x[i - g->from] = ex;
    }
    g->expected = sn_stats_median(x, n);
    /* degradation only ever takes bandwidth away: the best quarter of
     * equivalent subjects shows what this hardware and software reach
     * while at least a quarter of them is sound */
    qsort(e, n, sizeof(double), cmp_desc);
    top = (n + 3) / 4;
    g->reach = top % 2 ? e[top / 2] : 0.5 * (e[top / 2 - 1] + e[top / 2]);
    scale = n > 1 && g->reach < 1.0 ? g->reach : 1.0;
    for (size_t i = g->from; i < g->to; i++) {
        const struct sn_result *r = keys[i].r;
        struct sn_diag_cmp *c = &cmp[keys[i].idx][SN_BASIS_DESIGN];
        double ex = expected[keys[i].idx];
        sn_diag_vs_design(cfg, r, r->lower_better ? ex / scale : ex * scale, c);
        c->expected = ex;
    }
    g->measured = keys[g->from].r->lower_better ? g->expected / g->reach
                                                : g->expected * g->reach;
    free(e);
    free(x);
}

/* The baseline comparison of a group. A change every member shares (a
 * new driver, a setting, a loaded machine) moves the whole class: the
 * best quarter of the group shows how far, as it does for the design.
 * Each member is then judged against its baseline moved by that much, so
 * that a shared shift becomes one systemic finding instead of a failure
 * on every pair and cables blamed for them; what one member lost beyond
 * the class is what localisation works on. */
static void baseline_group(const struct sn_diag_config *cfg,
                           const struct peer_key *keys, struct group *g,
                           const struct sn_baseline *bl,
                           struct sn_diag_cmp (*cmp)[SN_BASIS_COUNT])
{
    size_t n = 0, top;
    double *ratio, *z;

    g->bl_reach = NAN;
    g->bl_z = NAN;
    if (!bl)
        return;
    ratio = sn_xmalloc((g->to - g->from) * sizeof(double));
    z = sn_xmalloc((g->to - g->from) * sizeof(double));
    for (size_t i = g->from; i < g->to; i++) {
        const struct sn_diag_cmp *c = &cmp[keys[i].idx][SN_BASIS_BASELINE];
        if (!c->valid || !isfinite(c->z))
            continue;
        ratio[n] = c->ratio;
        z[n++] = c->z;
    }
    if (n < 2)
        goto out;
    qsort(ratio, n, sizeof(double), cmp_desc);
    qsort(z, n, sizeof(double), cmp_desc);
    top = (n + 3) / 4;
    g->bl_reach =
        top % 2 ? ratio[top / 2] : 0.5 * (ratio[top / 2 - 1] + ratio[top / 2]);
    g->bl_z = top % 2 ? z[top / 2] : 0.5 * (z[top / 2 - 1] + z[top / 2]);
    if (!(g->bl_reach < 1.0) || !(g->bl_reach > 0.0))
        goto out;
    for (size_t i = g->from; i < g->to; i++) {
        const struct sn_result *r = keys[i].r;
        struct sn_diag_cmp *c = &cmp[keys[i].idx][SN_BASIS_BASELINE];
        const struct sn_baseline_entry *e = sn_baseline_find(bl, r);
        struct sn_baseline_entry moved;
        if (!c->valid || !e)
            continue;
        moved = *e;
        moved.center =
            r->lower_better ? e->center / g->bl_reach : e->center * g->bl_reach;
        sn_diag_vs_baseline(cfg, r, &moved, c);
        c->expected = e->center;
    }
out:
    free(ratio);
    free(z);
}

/* Group the results, compare each with its design, its peers; return
 * the groups (for systemic findings). */
static size_t
compare_groups(const struct sn_diag_config *cfg, const struct sn_topo *t,
               const struct sn_results *rs, const double *expected,
               const struct sn_baseline *bl,
               struct sn_diag_cmp (*cmp)[SN_BASIS_COUNT],
               struct peer_key **keys_out, struct group **groups_out)
{
    struct peer_key *keys = sn_xmalloc((rs->n + 1) * sizeof(*keys));
    struct group *groups = NULL;
    size_t ng = 0, cap = 0;

    for (size_t i = 0; i < rs->n; i++) {
        keys[i].r = &rs->items[i];
        keys[i].cls = peer_class(t, &rs->items[i]);
        keys[i].idx = i;
    }
    qsort(keys, rs->n, sizeof(*keys), peer_cmp);
    for (size_t i = 0; i < rs->n;) {
        size_t j = i + 1;
        struct group *g;
        while (j < rs->n && same_peers(&keys[i], &keys[j]))
            j++;
        SN_GROW(groups, cap, ng + 1);
        g = &groups[ng++];
        memset(g, 0, sizeof(*g));
        g->from = i;
        g->to = j;
        design_group(cfg, keys, g, expected, cmp);
        baseline_group(cfg, keys, g, bl, cmp);
        /* a collective has no peers; too few members have no robust
         * median */
        if (keys[i].r->subject != SN_SUBJECT_GROUP && j - i >= cfg->peer_min)
            compare_group(cfg, keys, i, j, expected, cmp);
        i = j;
    }
    *keys_out = keys;
    *groups_out = groups;
    return ng;
}

/* ---- findings --------------------------------------------------------------
 */

struct sn_finding *sn__diag_finding_new(struct findings *fs)
{
    struct sn_finding *f;

    SN_GROW(fs->items, fs->cap, fs->n + 1);
    f = &fs->items[fs->n++];
    memset(f, 0, sizeof(*f));
    f->measured = NAN;
    f->health = NAN;
    f->confidence = 1.0;
    return f;
}

static void finding_release(struct sn_finding *f)
{
    for (size_t i = 0; i < f->nsupport; i++)
        free(f->support[i]);
    free(f->support);
    for (size_t i = 0; i < f->nalternatives; i++)
        free(f->alternatives[i]);
    free(f->alternatives);
    free(f->evidence);
    free(f->next_step);
}

enum sn_severity sn__diag_worst(const struct sn_diag_cmp *c)
{
    enum sn_severity s = SN_SEV_PASS;

    for (int b = 0; b < SN_BASIS_COUNT; b++)
        if (c[b].valid && c[b].severity > s)
            s = c[b].severity;
    return s;
}

/* The oriented ratio of the most damning flagged comparison. */
double sn__diag_worst_ratio(const struct sn_diag_cmp *c)
{
    double r = 1.0;

    for (int b = 0; b < SN_BASIS_COUNT; b++)
        if (c[b].valid && c[b].severity > SN_SEV_PASS && c[b].ratio < r)
            r = c[b].ratio;
    return r;
}

/* A ratio as people read it: a share for throughput ("48%"), a multiple
 * for latency and time, where lower is better ("1.9x"): ratio is
 * oriented (reference over measured for those). */
static const char *share(double ratio, bool lower_better, char *buf, size_t len)
{
    if (lower_better)
        snprintf(buf, len, "%.1fx", ratio > 0 ? 1.0 / ratio : INFINITY);
    else
        snprintf(buf, len, "%.0f%%", 100.0 * ratio);
    return buf;
}

/* "measured 12 MB/s; design 25 MB/s (48%, FAIL); ..." */
static char *result_evidence(const struct sn_result *r,
                             const struct sn_diag_cmp *c,
                             const char *design_source)
{
    struct sn_buf b;
    char v[48], w[48], q[24];

    sn_buf_init(&b);
    sn_buf_printf(&b, "%s%s%s measured %s (median of %zu)", r->test,
                  r->params[0] ? " " : "", r->params,
                  sn_unit_format_named(r->stats.median, r->unit, v, sizeof(v)),
                  r->stats.n);
    if (c[SN_BASIS_DESIGN].valid)
        sn_buf_printf(
            &b, "; design %s%s%s: %s, %s",
            sn_unit_format_named(c[SN_BASIS_DESIGN].reference, r->unit, v,
                                 sizeof(v)),
            design_source ? " from " : "", design_source ? design_source : "",
            share(c[SN_BASIS_DESIGN].ratio, r->lower_better, q, sizeof(q)),
            sn_severity_name(c[SN_BASIS_DESIGN].severity));
    if (c[SN_BASIS_BASELINE].valid && c[SN_BASIS_BASELINE].expected > 0 &&
        c[SN_BASIS_BASELINE].expected != c[SN_BASIS_BASELINE].reference)
        sn_buf_printf(&b, "; baseline %s, moved with its whole class to %s",
                      sn_unit_format_named(c[SN_BASIS_BASELINE].expected,
                                           r->unit, v, sizeof(v)),
                      sn_unit_format_named(c[SN_BASIS_BASELINE].reference,
                                           r->unit, w, sizeof(w)));
    else if (c[SN_BASIS_BASELINE].valid)
        sn_buf_printf(&b, "; baseline %s",
                      sn_unit_format_named(c[SN_BASIS_BASELINE].reference,
                                           r->unit, v, sizeof(v)));
    if (c[SN_BASIS_BASELINE].valid)
        sn_buf_printf(&b, " +/- %s: z %.1f, %s",
                      sn_unit_format_named(c[SN_BASIS_BASELINE].noise, r->unit,
                                           w, sizeof(w)),
                      c[SN_BASIS_BASELINE].z,
                      sn_severity_name(c[SN_BASIS_BASELINE].severity));
    if (c[SN_BASIS_PEERS].valid)
        sn_buf_printf(
            &b, "; median of %zu peers %s: %s, z %.1f, %s",
            c[SN_BASIS_PEERS].npeers,
            sn_unit_format_named(c[SN_BASIS_PEERS].reference, r->unit, v,
                                 sizeof(v)),
            share(c[SN_BASIS_PEERS].ratio, r->lower_better, q, sizeof(q)),
            c[SN_BASIS_PEERS].z, sn_severity_name(c[SN_BASIS_PEERS].severity));
    return sn_buf_detach(&b, NULL);
}

/* What to do about a slow device, by the kind of device the rank ran
 * on and what was slow (unit; NULL: anything else). */
static const struct {
    bool cpu;
    const char *unit;
    const char *advice;
} device_advice[] = {
    {false, "FLOP/s",
     "check that clocks are locked and the power limit is not left at a "
     "balanced default, then throttle reasons and temperature ('supernode "
     "doctor'); re-run 'supernode check'"},
    {false, "B/s",
     "check memory clocks and ECC mode, then throttle reasons ('supernode "
     "doctor'); re-run 'supernode check'"},
    {false, NULL,
     "re-run 'supernode check'; if it persists, check the device with "
     "'supernode doctor'"},
    {true, "FLOP/s",
     "check that each rank has cores of its own (mpirun --bind-to core; "
     "no other job on them), the CPU frequency governor and boost "
     "setting (cpupower frequency-info), then thermal throttling; re-run "
     "'supernode check'"},
    {true, "B/s",
     "check that each rank is bound to the cores and memory of one NUMA "
     "node (mpirun --bind-to core --map-by numa), that no other job shares "
     "the memory bandwidth, and that every memory channel is populated "
     "(dmidecode -t memory); re-run 'supernode check'"},
    {true, NULL,
     "re-run 'supernode check' with no other job on the host; if it "
     "persists, check the host with 'supernode doctor'"},
};

static const char *device_next_step(bool cpu, const struct sn_result *r)
{
    for (size_t i = 0; i < SN_ARRAY_LEN(device_advice); i++)
        if (device_advice[i].cpu == cpu &&
            (!device_advice[i].unit || !strcmp(r->unit, device_advice[i].unit)))
            return device_advice[i].advice;
    return device_advice[2].advice;
}

const char *sn__diag_link_next_step(const struct sn_topo *t, uint32_t l)
{
    switch (t->links[l].medium) {
    case SN_MEDIUM_BOARD:
        return "check the link's trained width and speed against its "
               "rating ('supernode doctor', lspci LnkSta), reseat the "
               "device, then check the slot; re-run 'supernode check'";
    case SN_MEDIUM_COPPER:
    case SN_MEDIUM_ACC:
        return "check the connector is fully seated and latched at both "
               "ends, check the bend radius along the run, then replace "
               "the cable; re-run 'supernode check' after each step";
    default:
        return "check the connector is fully seated and latched at both "
               "ends, clean the optics, check the bend radius along the "
               "run, then replace the transceiver; re-run 'supernode "
               "check' after each step";
    }
}

/* A finding for one flagged result (device, collective, or a pair when
 * there is no topology to localise with). */
void sn__diag_result_finding(struct findings *fs, const struct sn_topo *t,
                             bool cpu, const struct sn_result *r,
                             const struct sn_diag_cmp *c,
                             const char *design_source)
{
    struct sn_finding *f = sn__diag_finding_new(fs);

    f->severity = sn__diag_worst(c);
    f->kind = r->subject == SN_SUBJECT_DEVICE ? SN_FIND_DEVICE
              : r->subject == SN_SUBJECT_PAIR ? SN_FIND_PAIR
                                              : SN_FIND_GROUP;
    result_names(t, cpu, r, f->subject, sizeof(f->subject), f->label,
                 sizeof(f->label));
    sn_strlcpy(f->test, r->test, sizeof(f->test));
    sn_strlcpy(f->params, r->params, sizeof(f->params));
    sn_strlcpy(f->unit, r->unit, sizeof(f->unit));
    f->measured = r->stats.median;
    memcpy(f->cmp, c, sizeof(f->cmp));
    f->score = 1.0 - sn__diag_worst_ratio(c);
    f->evidence = result_evidence(r, c, design_source);
    if (f->kind == SN_FIND_DEVICE)
        f->next_step = sn_xstrdup(device_next_step(cpu, r));
    else if (f->kind == SN_FIND_GROUP)
        f->next_step = sn_xstrdup(
            "check that the communication library detected the real "
            "topology (a wrong one sends traffic the long way round), then "
            "the devices and links above; re-run 'supernode check'");
    else if (t)
        f->next_step = sn_xstrdup(
            "one measurement of this pair fell short and the rest did not "
            "(noise, a fault in one direction, or a latency): re-run "
            "'supernode check'; if it stays, check both ends' links with "
            "'supernode doctor'");
    else
        f->next_step = sn_xstrdup(
            "give the spec (--spec) so that the slow pair is localised to "
            "a link; then check both ends' links with 'supernode doctor'");
}

/* How many results the caller marked with this expectation source. */
static size_t count_source(const struct sn_diag_input *in, size_t n,
                           const char *note)
{
    size_t k = 0;

    for (size_t i = 0; in->expected_source && i < n; i++)
        k += in->expected_source[i] == note;
    return k;
}

/* A WARN finding about n pair results the design could not judge, with
 * its evidence and next step. */
static void unjudged_finding(struct findings *fs, const char *subject, size_t n,
                             const char *evidence, const char *next)
{
    struct sn_finding *f = sn__diag_finding_new(fs);
    struct sn_buf b;

    f->severity = SN_SEV_WARN;
    f->kind = SN_FIND_SYSTEMIC;
    snprintf(f->subject, sizeof(f->subject), "%s", subject);
    snprintf(f->label, sizeof(f->label), "%zu pair results", n);
    sn_buf_init(&b);
    sn_buf_puts(&b, evidence);
    f->evidence = sn_buf_detach(&b, NULL);
    sn_buf_init(&b);
    sn_buf_puts(&b, next);
    f->next_step = sn_buf_detach(&b, NULL);
    f->score = (double)n;
}

/* A class of equivalent subjects whose best quarter falls short of the
 * design, or moved away from its baseline: one finding for the class,
 * not one per member. */
static void systemic_findings(struct findings *fs,
                              const struct sn_diag_config *cfg,
                              const struct sn_topo *t,
                              const struct peer_key *keys,
                              const struct group *groups, size_t ng,
                              const char *baseline_name)
{
    for (size_t k = 0; k < ng; k++) {
        const struct group *g = &groups[k];
        const struct sn_result *r = keys[g->from].r;
        size_t n = g->to - g->from;
        enum sn_severity dsev = SN_SEV_PASS, bsev = SN_SEV_PASS;
        const char *members =
            r->subject == SN_SUBJECT_DEVICE ? "devices" : "pairs";
        struct sn_finding *f;
        struct sn_buf b;
        char v[48], w[48], q[24];
        const char *what;
        if (n < 2)
            continue;
        if (g->reach < cfg->design_fail)
            dsev = SN_SEV_FAIL;
        else if (g->reach < cfg->design_warn)
            dsev = SN_SEV_WARN;
        if (g->bl_z < -cfg->baseline_fail_z)
            bsev = SN_SEV_FAIL;
        else if (g->bl_z < -cfg->baseline_warn_z)
            bsev = SN_SEV_WARN;
        if (dsev == SN_SEV_PASS && bsev == SN_SEV_PASS)
            continue;
        f = sn__diag_finding_new(fs);
        f->severity = dsev > bsev ? dsev : bsev;
        f->kind = SN_FIND_SYSTEMIC;
        what = r->subject == SN_SUBJECT_DEVICE ? "devices"
               : keys[g->from].cls == 1        ? "pairs in a domain"
                                               : "pairs";
        snprintf(f->subject, sizeof(f->subject), "%s", what);
        snprintf(f->label, sizeof(f->label), "%zu %s%s%s", n, members,
                 t && t->spec && t->spec->accel ? " of " : "",
                 t && t->spec && t->spec->accel ? t->spec->accel->name : "");
        sn_strlcpy(f->test, r->test, sizeof(f->test));
        sn_strlcpy(f->params, r->params, sizeof(f->params));
        sn_strlcpy(f->unit, r->unit, sizeof(f->unit));
        sn_buf_init(&b);
        sn_buf_printf(&b, "%s%s%s: ", r->test, r->params[0] ? " " : "",
                      r->params);
        if (dsev > SN_SEV_PASS) {
            f->measured = g->measured;
            f->cmp[SN_BASIS_DESIGN].valid = true;
            f->cmp[SN_BASIS_DESIGN].severity = dsev;
            f->cmp[SN_BASIS_DESIGN].reference = g->expected;
            f->cmp[SN_BASIS_DESIGN].expected = g->expected;
            f->cmp[SN_BASIS_DESIGN].ratio = g->reach;
            f->cmp[SN_BASIS_DESIGN].z = NAN;
            /* "reach 12 GB/s, 48% of the design's", "take 9 us, 1.9x
             * the design's" */
            sn_buf_printf(
                &b,
                "the best quarter of %zu %s %s %s, %s %sthe "
                "design's %s",
                n, members, r->lower_better ? "take" : "reach",
                sn_unit_format_named(g->measured, r->unit, v, sizeof(v)),
                share(g->reach, r->lower_better, q, sizeof(q)),
                r->lower_better ? "" : "of ",
                sn_unit_format_named(g->expected, r->unit, w, sizeof(w)));
        }
        if (bsev > SN_SEV_PASS) {
            f->cmp[SN_BASIS_BASELINE].valid = true;
            f->cmp[SN_BASIS_BASELINE].severity = bsev;
            f->cmp[SN_BASIS_BASELINE].reference = NAN;
            f->cmp[SN_BASIS_BASELINE].ratio = g->bl_reach;
            f->cmp[SN_BASIS_BASELINE].z = g->bl_z;
            f->cmp[SN_BASIS_BASELINE].lo = NAN;
            f->cmp[SN_BASIS_BASELINE].hi = NAN;
            f->cmp[SN_BASIS_BASELINE].noise = NAN;
            sn_buf_printf(&b,
                          "%sthe best quarter of %zu %s %s %s %s"
                          "baseline '%s' (z %.1f)",
                          dsev > SN_SEV_PASS ? "; " : "", n, members,
                          r->lower_better ? "take" : "reach",
                          share(g->bl_reach, r->lower_better, q, sizeof(q)),
                          r->lower_better ? "the latency of " : "of ",
                          baseline_name ? baseline_name : "", g->bl_z);
        }
        sn_buf_puts(&b, "; every one falls short, so no single part "
                        "explains it");
        f->score = 1.0 - (dsev >= bsev ? g->reach : g->bl_reach);
        f->evidence = sn_buf_detach(&b, NULL);
        /* a class that moved since its baseline: first what changed
         * since then, then what its members share */
        sn_buf_init(&b);
        if (bsev > SN_SEV_PASS)
            sn_buf_puts(&b, "check what changed since the baseline was "
                            "taken (driver, library and firmware versions, "
                            "settings, other jobs on the machines); then ");
        else
            sn_buf_puts(&b, "check ");
        if (r->subject == SN_SUBJECT_DEVICE)
            sn_buf_puts(&b, "what every device shares: clocks locked and power "
                            "limits, the driver, runtime and library versions "
                            "against the vendor's compatibility matrix "
                            "('supernode doctor'); re-run 'supernode check'");
        else
            sn_buf_puts(&b, "what every pair shares: the transport the "
                            "communication library chose and its settings, "
                            "that it detected the real topology, the NICs' "
                            "negotiated speed; then the message size; re-run "
                            "'supernode check'");
        f->next_step = sn_buf_detach(&b, NULL);
    }
}

/* ---- baseline subjects this run did not measure
 * -------------------------------- */

/* Order results by what they measure on whom, for lookups. */
static int result_key_cmp(const void *x, const void *y)
{
    const struct sn_result *a = *(const struct sn_result *const *)x;
    const struct sn_result *b = *(const struct sn_result *const *)y;
    int c = strcmp(a->test, b->test);

    if (c)
        return c;
    c = strcmp(a->params, b->params);
    if (c)
        return c;
    if (a->subject != b->subject)
        return a->subject < b->subject ? -1 : 1;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return (a->b > b->b) - (a->b < b->b);
}

static void missing_findings(struct findings *fs, const struct sn_topo *t,
                             bool cpu, const struct sn_results *rs,
                             const struct sn_baseline *bl)
{
    const struct sn_result **idx = sn_xmalloc((rs->n + 1) * sizeof(*idx));

    for (size_t i = 0; i < rs->n; i++)
        idx[i] = &rs->items[i];
    qsort(idx, rs->n, sizeof(*idx), result_key_cmp);
    for (size_t i = 0; i < bl->n; i++) {
        const struct sn_baseline_entry *e = &bl->entries[i];
        struct sn_result probe;
        const struct sn_result *pp = &probe;
        struct sn_finding *f;
        struct sn_buf b;
        char v[48];
        memset(&probe, 0, sizeof(probe));
        memcpy(probe.test, e->test, sizeof(probe.test));
        memcpy(probe.params, e->params, sizeof(probe.params));
        probe.subject = e->subject;
        probe.a = e->a;
        probe.b = e->b;
        if (bsearch(&pp, idx, rs->n, sizeof(*idx), result_key_cmp))
            continue;
        f = sn__diag_finding_new(fs);
        f->severity = SN_SEV_WARN;
        f->kind = SN_FIND_MISSING;
        result_names(t, cpu, &probe, f->subject, sizeof(f->subject), f->label,
                     sizeof(f->label));
        sn_strlcpy(f->test, e->test, sizeof(f->test));
        sn_strlcpy(f->params, e->params, sizeof(f->params));
        sn_strlcpy(f->unit, e->unit, sizeof(f->unit));
        sn_buf_init(&b);
        sn_buf_printf(&b,
                      "%s%s%s: the baseline has %s for it, this run "
                      "measured nothing",
                      e->test, e->params[0] ? " " : "", e->params,
                      sn_unit_format_named(e->center, e->unit, v, sizeof(v)));
        f->evidence = sn_buf_detach(&b, NULL);
        f->next_step =
            sn_xstrdup("check that the device is visible and its rank started "
                       "('supernode doctor'), then re-run 'supernode check'");
    }
    free(idx);
}

/* ---- node health
 * ---------------------------------------------------------------- */

/* A doctor FAIL on a host is a finding: the host is the subject, the
 * device the label, the doctor's remedy the next step. */
static void health_findings(struct findings *fs,
                            const struct sn_store_health *h, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct sn_finding *f;
        struct sn_buf b;
        if (strcmp(h[i].status, "FAIL"))
            continue;
        f = sn__diag_finding_new(fs);
        f->severity = SN_SEV_FAIL;
        f->kind = SN_FIND_HEALTH;
        sn_strlcpy(f->subject, h[i].host, sizeof(f->subject));
        sn_strlcpy(f->label, h[i].subject[0] ? h[i].subject : h[i].name,
                   sizeof(f->label));
        sn_strlcpy(f->test, h[i].name, sizeof(f->test));
        sn_buf_init(&b);
        sn_buf_printf(&b, "doctor %s on %s: %s", h[i].name, h[i].host,
                      h[i].evidence && h[i].evidence[0] ? h[i].evidence
                                                        : "failed");
        f->evidence = sn_buf_detach(&b, NULL);
        sn_buf_init(&b);
        if (h[i].remedy && h[i].remedy[0])
            sn_buf_puts(&b, h[i].remedy);
        else
            sn_buf_printf(&b,
                          "run 'supernode doctor' on %s for the "
                          "details",
                          h[i].host);
        f->next_step = sn_buf_detach(&b, NULL);
    }
}

static struct sn_store_health *health_copy(const struct sn_store_health *h,
                                           size_t n)
{
    struct sn_store_health *c = sn_xcalloc(n + 1, sizeof(*c));

    for (size_t i = 0; i < n; i++) {
        c[i] = h[i];
        c[i].evidence = sn_xstrdup(h[i].evidence ? h[i].evidence : "");
        c[i].remedy = sn_xstrdup(h[i].remedy ? h[i].remedy : "");
    }
    return c;
}

/* ---- order
 * ---------------------------------------------------------------------- */

static int kind_rank(enum sn_finding_kind k)
{
    /* the most particular cause first: a cable, then a part of one
     * node (what doctor found; it often explains the device findings
     * below it), then a whole class */
    static const int order[SN_FIND_KIND_COUNT] = {
        [SN_FIND_LINK] = 0,     [SN_FIND_HEALTH] = 1,
        [SN_FIND_SYSTEMIC] = 2, [SN_FIND_UNEXPLAINED] = 3,
        [SN_FIND_DEVICE] = 4,   [SN_FIND_GROUP] = 5,
        [SN_FIND_PAIR] = 6,     [SN_FIND_MISSING] = 7,
    };
    return order[k];
}

static int finding_cmp(const void *x, const void *y)
{
    const struct sn_finding *a = x, *b = y;
    double sa, sb;
    int c;

    if (a->severity != b->severity)
        return a->severity > b->severity ? -1 : 1;
    if (kind_rank(a->kind) != kind_rank(b->kind))
        return kind_rank(a->kind) < kind_rank(b->kind) ? -1 : 1;
    /* scores are rounded to 1e-9 so that noise in the last digits cannot
     * reorder findings of the same strength; rounded, not compared within
     * a tolerance, which would not be transitive (a ~ b ~ c, a > c) and
     * let the sort's result depend on the order it was given */
    sa = round(a->score * 1e9);
    sb = round(b->score * 1e9);
    if (sa != sb)
        return sa > sb ? -1 : 1;
    c = strcmp(a->subject, b->subject);
    if (c)
        return c;
    c = strcmp(a->test, b->test);
    if (c)
        return c;
    c = strcmp(a->params, b->params);
    if (c)
        return c;
    /* one check failing on two devices of a host */
    return strcmp(a->label, b->label);
}

/* ---- verdicts
 * -------------------------------------------------------------------- */

static void verdicts(struct sn_diag_report *rep, const struct sn_topo *t,
                     bool cpu, const struct sn_results *rs,
                     struct sn_diag_cmp (*cmp)[SN_BASIS_COUNT],
                     const struct pair_obs *obs, size_t nobs,
                     const struct sn_diag_culprits *cul)
{
    size_t ndev = 0;

    for (size_t i = 0; i < rs->n; i++)
        if (rs->items[i].subject == SN_SUBJECT_DEVICE &&
            rs->items[i].a + 1 > ndev && rs->items[i].a != SN_STORE_NO_RANK)
            ndev = rs->items[i].a + 1;
    if (t && t->naccel > ndev)
        ndev = t->naccel;
    rep->devices = sn_xcalloc(ndev + 1, sizeof(*rep->devices));
    rep->ndevices = ndev;
    for (size_t d = 0; d < ndev; d++) {
        snprintf(rep->devices[d].subject, sizeof(rep->devices[d].subject),
                 "rank%zu", d);
        sn__diag_device_label(t, cpu, (uint32_t)d, rep->devices[d].label,
                              sizeof(rep->devices[d].label));
    }
    for (size_t i = 0; i < rs->n; i++) {
        const struct sn_result *r = &rs->items[i];
        if (r->subject != SN_SUBJECT_DEVICE || r->a >= ndev)
            continue;
        rep->devices[r->a].measured = true;
        if (sn__diag_worst(cmp[i]) > rep->devices[r->a].severity)
            rep->devices[r->a].severity = sn__diag_worst(cmp[i]);
    }
    rep->pairs = sn_xcalloc(nobs + 1, sizeof(*rep->pairs));
    rep->npairs = nobs;
    for (size_t i = 0; i < nobs; i++) {
        snprintf(rep->pairs[i].subject, sizeof(rep->pairs[i].subject),
                 "rank%u~rank%u", (unsigned)obs[i].a, (unsigned)obs[i].b);
        sn__diag_pair_name(t, cpu, &obs[i], rep->pairs[i].label,
                           sizeof(rep->pairs[i].label));
        rep->pairs[i].severity = obs[i].verdict;
        rep->pairs[i].measured = true;
    }
    if (!t)
        return;
    rep->links = sn_xcalloc(t->nlinks + 1, sizeof(*rep->links));
    rep->nlinks = t->nlinks;
    for (uint32_t l = 0; l < t->nlinks; l++) {
        sn_topo_link_id(t, l, rep->links[l].subject,
                        sizeof(rep->links[l].subject));
        sn_topo_link_label(t, l, rep->links[l].label,
                           sizeof(rep->links[l].label));
        rep->links[l].measured =
            cul->crossed && l < cul->nlinks && cul->crossed[l];
    }
    for (size_t i = 0; i < cul->n; i++)
        rep->links[cul->items[i].link].severity = cul->items[i].severity;
}

/* ---- the measured figures
 * ---------------------------------------------------------- */

/* Is result r of the kind figure f sums up? */
static bool figure_of(const struct sn_diag_figure *f, const struct sn_result *r)
{
    return f->subject == r->subject && !strcmp(f->test, r->test) &&
           !strcmp(f->params, r->params) && !strcmp(f->unit, r->unit);
}

/* One figure per kind of measurement, in the order the results first
 * name them: the median of the subjects' medians, their range, and the
 * references that judged them; and whether peers judged anything. */
static void figures(struct sn_diag_report *rep,
                    const struct sn_diag_config *cfg,
                    const struct sn_results *rs,
                    struct sn_diag_cmp (*cmp)[SN_BASIS_COUNT])
{
    double *v = sn_xmalloc((rs->n + 1) * sizeof(*v));
    size_t cap = 0;

    rep->peer_min = cfg->peer_min;
    for (size_t i = 0; i < rs->n; i++) {
        const struct sn_result *r = &rs->items[i];
        struct sn_diag_figure *f = NULL;
        size_t n = 0;

        if (r->a != SN_STORE_NO_RANK && r->a + 1 > rep->ranks)
            rep->ranks = r->a + 1;
        if (r->subject == SN_SUBJECT_PAIR && r->b != SN_STORE_NO_RANK &&
            r->b + 1 > rep->ranks)
            rep->ranks = r->b + 1;
        if (cmp[i][SN_BASIS_PEERS].valid)
            rep->peers_judged = true;
        for (size_t k = 0; k < rep->nfigures && !f; k++)
            if (figure_of(&rep->figures[k], r))
                f = &rep->figures[k];
        if (f)
            continue;
        SN_GROW(rep->figures, cap, rep->nfigures + 1);
        f = &rep->figures[rep->nfigures++];
        memset(f, 0, sizeof(*f));
        f->subject = r->subject;
        sn_strlcpy(f->test, r->test, sizeof(f->test));
        sn_strlcpy(f->params, r->params, sizeof(f->params));
        sn_strlcpy(f->unit, r->unit, sizeof(f->unit));
        f->lower_better = r->lower_better;
        f->min = INFINITY;
        f->max = -INFINITY;
        for (size_t k = i; k < rs->n; k++) {
            const struct sn_result *o = &rs->items[k];
            double m = o->stats.median;
            if (!figure_of(f, o))
                continue;
            for (int b = 0; b < SN_BASIS_COUNT; b++)
                if (cmp[k][b].valid) {
                    f->judged |= 1u << b;
                    if (cmp[k][b].severity > f->worst)
                        f->worst = cmp[k][b].severity;
                }
            if (!isfinite(m))
                continue;
            v[n++] = m;
            f->min = m < f->min ? m : f->min;
            f->max = m > f->max ? m : f->max;
        }
        f->n = n;
        if (n) {
            qsort(v, n, sizeof(*v), cmp_desc);
            f->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        } else {
            f->median = f->min = f->max = NAN;
        }
    }
    free(v);
}

/* ---- the whole diagnosis
 * --------------------------------------------------------- */

/* SN_EINPUT when a result names a rank that is not an accelerator of t
 * (or no rank at all). */
static int check_ranks(const struct sn_results *rs, const struct sn_topo *t,
                       struct sn_error *err)
{
    for (size_t i = 0; i < rs->n; i++) {
        const struct sn_result *r = &rs->items[i];
        bool bad_rank =
            r->a == SN_STORE_NO_RANK ||
            (r->subject == SN_SUBJECT_PAIR && r->b == SN_STORE_NO_RANK);
        if (!bad_rank && t && r->subject != SN_SUBJECT_GROUP)
            bad_rank = r->a >= t->naccel ||
                       (r->subject == SN_SUBJECT_PAIR && r->b >= t->naccel);
        if (bad_rank)
            return sn_error_set(err, SN_EINPUT,
                                "result %zu (%s) names rank %u%s, not an "
                                "accelerator of the spec",
                                i, r->test, (unsigned)r->a,
                                r->subject == SN_SUBJECT_PAIR ? " or its peer"
                                                              : "");
    }
    return SN_OK;
}

/* Every result against the baseline and, with the groups of equivalent
 * results compare_groups makes (*keys, *groups: the caller's to free;
 * returns their number), the design and its peers. */
static size_t compare_all(const struct sn_diag_config *cfg,
                          const struct sn_diag_input *in,
                          struct sn_diag_cmp (*cmp)[SN_BASIS_COUNT],
                          struct peer_key **keys, struct group **groups)
{
    const struct sn_results *rs = in->results;
    size_t ngroups;

    for (size_t i = 0; i < rs->n; i++) {
        const struct sn_result *r = &rs->items[i];
        if (in->baseline)
            sn_diag_vs_baseline(cfg, r, sn_baseline_find(in->baseline, r),
                                &cmp[i][SN_BASIS_BASELINE]);
    }
    ngroups = compare_groups(cfg, in->topo, rs, in->expected, in->baseline, cmp,
                             keys, groups);
    /* A pair's latency is at most WARN. On hosts it follows the
     * scheduler and the software's cost per message more than the cable
     * (it gets no design value and is not localised for the same
     * reason): a loaded machine triples it while every cable is sound.
     * A FAIL on a pair needs its bandwidth. */
    for (size_t i = 0; i < rs->n; i++)
        if (rs->items[i].subject == SN_SUBJECT_PAIR &&
            rs->items[i].lower_better)
            for (int b = 0; b < SN_BASIS_COUNT; b++)
                if (cmp[i][b].severity > SN_SEV_WARN)
                    cmp[i][b].severity = SN_SEV_WARN;
    return ngroups;
}

/* Pair results the caller gave no design value on purpose: one finding
 * each kind, in place of a percentage of a rate the run had no way to
 * reach (the cpu backend's "1% of 450 GB/s", two ranks on one host
 * against two nodes). */
static void unjudged_findings(struct findings *fs,
                              const struct sn_diag_input *in)
{
    const struct sn_topo *t = in->topo;
    const struct sn_accel_info *a = t && t->spec ? t->spec->accel : NULL;
    const char *fabric = a && a->scaleup_name && a->scaleup_name[0]
                             ? a->scaleup_name
                             : "scale-up";
    size_t nres = in->results->n;
    size_t n = count_source(in, nres, sn_expect_colocated_note);
    char ev[512];

    if (n) {
        snprintf(ev, sizeof(ev),
                 "colocated (--allow-colocated): %zu pair results are "
                 "between ranks that share a host the spec gives them "
                 "apart, so their traffic never crossed the designed "
                 "links: no design value for them",
                 n);
        unjudged_finding(fs, "placement", n, ev,
                         "run one rank per accelerator on the hosts the "
                         "spec names (its hosts:, or a hostfile in node "
                         "order) to measure the design");
    }
    n = count_source(in, nres, sn_expect_cpu_fabric_note);
    if (n) {
        snprintf(ev, sizeof(ev),
                 "the cpu backend cannot measure the %s fabric of this "
                 "design: its %zu pair results inside a scale-up domain "
                 "moved host memory through MPI, so they are judged "
                 "against the baseline and their peers only, not the "
                 "design",
                 fabric, n);
        unjudged_finding(fs, "backend", n, ev,
                         "run check with --backend cuda on the "
                         "accelerators to measure the fabric");
    }
}

/* Devices and collectives: one finding per flagged result. */
static void result_findings(struct findings *fs, const struct sn_diag_input *in,
                            struct sn_diag_cmp (*cmp)[SN_BASIS_COUNT])
{
    const struct sn_results *rs = in->results;

    for (size_t i = 0; i < rs->n; i++) {
        const struct sn_result *r = &rs->items[i];
        if (r->subject == SN_SUBJECT_PAIR ||
            sn__diag_worst(cmp[i]) == SN_SEV_PASS)
            continue;
        sn__diag_result_finding(fs, in->topo, sn__diag_cpu(in), r, cmp[i],
                                in->expected_source ? in->expected_source[i]
                                                    : NULL);
    }
}

/* Findings that need no comparison (baseline subjects not measured,
 * node health), then all of them ordered into the report, which takes
 * fs's items. */
static void finish_report(struct sn_diag_report *rep, struct findings *fs,
                          const struct sn_diag_input *in)
{
    if (in->baseline)
        missing_findings(fs, in->topo, sn__diag_cpu(in), in->results,
                         in->baseline);
    health_findings(fs, in->health, in->nhealth);
    if (in->nhealth) {
        rep->health = health_copy(in->health, in->nhealth);
        rep->nhealth = in->nhealth;
    }
    if (fs->n)
        qsort(fs->items, fs->n, sizeof(*fs->items), finding_cmp);
    rep->findings = fs->items;
    rep->n = fs->n;
    fs->items = NULL;
    rep->verdict = rep->n ? rep->findings[0].severity : SN_SEV_PASS;
}

/* The steps: check the ranks, compare every result, add the systemic,
 * unjudged, device and collective findings, localise the pairs and add
 * theirs, then the rest, order them, and give each device, pair and
 * link its verdict. The contract is in diagnose.h. */
int sn_diag_run(const struct sn_diag_input *in, struct sn_diag_report **out,
                struct sn_error *err)
{
    const struct sn_results *rs = in->results;
    const struct sn_topo *t = in->topo;
    struct sn_diag_config defaults;
    const struct sn_diag_config *cfg = in->cfg;
    struct sn_diag_cmp(*cmp)[SN_BASIS_COUNT] = NULL;
    struct sn_diag_report *rep = NULL;
    struct sn_diag_culprits cul;
    struct pair_obs *obs = NULL;
    struct findings fs;
    struct peer_key *keys = NULL;
    struct group *groups = NULL;
    size_t nobs = 0, ngroups = 0;
    int rc = SN_OK;

    *out = NULL;
    memset(&cul, 0, sizeof(cul));
    memset(&fs, 0, sizeof(fs));
    if (!cfg) {
        sn_diag_config_default(&defaults);
        cfg = &defaults;
    }
    if (t && !t->finished)
        return sn_error_set(err, SN_EINPUT, "topology is not finished");
    if ((rc = check_ranks(rs, t, err)))
        return rc;
    cmp = sn_xcalloc(rs->n + 1, sizeof(*cmp));
    ngroups = compare_all(cfg, in, cmp, &keys, &groups);
    rep = sn_xcalloc(1, sizeof(*rep));
    rep->nresults = rs->n;
    systemic_findings(&fs, cfg, t, keys, groups, ngroups,
                      in->baseline ? in->baseline->name : NULL);
    rep->baseline_used = in->baseline != NULL;
    unjudged_findings(&fs, in);
    result_findings(&fs, in, cmp);
    rc = sn__diag_pair_findings(&fs, in, cfg, cmp, &obs, &nobs, &cul, err);
    if (rc)
        goto out;
    finish_report(rep, &fs, in);
    verdicts(rep, t, sn__diag_cpu(in), rs, cmp, obs, nobs, &cul);
    figures(rep, cfg, rs, cmp);
out:
    for (size_t i = 0; fs.items && i < fs.n; i++)
        finding_release(&fs.items[i]);
    free(fs.items);
    sn_diag_culprits_release(&cul);
    free(obs);
    free(cmp);
    free(keys);
    free(groups);
    if (rc) {
        sn_diag_report_free(rep);
        return rc;
    }
    *out = rep;
    return SN_OK;
}

void sn_diag_report_free(struct sn_diag_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++)
        finding_release(&r->findings[i]);
    free(r->findings);
    free(r->devices);
    free(r->pairs);
    free(r->links);
    free(r->figures);
    sn_store_health_release(r->health, r->nhealth);
    free(r);
}

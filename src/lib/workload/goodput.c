/* goodput.c: training under failures. Failure rates per component class
 * (defaults from Llama 3's interruption table), the job's MTBF, the
 * checkpoint interval of Young and Daly, and the effective training time
 * ratio with the fault domain and the spare supernodes. docs/model.md
 * ("Training: goodput") gives the formulas. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "train-int.h"

static const char *const class_names[SN_FAIL_COUNT] = {
    "accelerator", "nic", "host", "network", "scaleup_switch", "software",
};

const char *sn_fail_class_name(enum sn_fail_class c)
{
    return c >= 0 && c < SN_FAIL_COUNT ? class_names[c] : "?";
}

void sn_goodput_params_default(struct sn_goodput_params *p)
{
    /* Llama 3 405B (Dubey et al. 2024, section 3.3.4 and Table 5): 419
     * unexpected interruptions in 54 days (1296 h) on 16,384 H100 in
     * 2,048 nodes with one NIC per GPU. Per class: GPU and its memory,
     * processor, thermal and SDC 268; NIC 7; host (maintenance, SSD,
     * power supply, chassis, IO board, CPU, system memory) 46; network
     * switch/cable 35; software (bugs, NCCL watchdog, dependencies) 63.
     * Unit MTBF = units x 1296 h / failures. No figure for scale-up switch
     * chips: they are left out unless the spec gives one. */
    memset(p, 0, sizeof(*p));
    p->mtbf[SN_FAIL_ACCEL] = 16384.0 * 1296 / 268;
    p->mtbf[SN_FAIL_NIC] = 16384.0 * 1296 / 7;
    p->mtbf[SN_FAIL_HOST] = 2048.0 * 1296 / 46;
    p->mtbf[SN_FAIL_NETWORK] = 16384.0 * 1296 / 35;
    p->mtbf[SN_FAIL_SCALEUP] = 0;
    p->mtbf[SN_FAIL_SOFTWARE] = 16384.0 * 1296 / 63;
    p->domain = SN_FAULT_JOB;
    /* no spare supernode: a failed supernode is out of the job until it
     * is repaired, so the blast radius of a failure grows with the
     * supernode (DOMAIN.md: a larger supernode grows the fault domain);
     * `spares: unlimited` is the pool that always has a replacement */
    p->spares = 0;
    p->restart = 600; /* 10 min (MegaScale: back in < 15 min) */
    p->repair = 24 * 3600.0;
}

static int fail_at(struct sn_error *err, const char *file,
                   const struct sn_yaml *n, const char *msg)
{
    return sn_error_at(err, SN_EINPUT, file, n ? n->line : 0, n ? n->col : 0,
                       "%s", msg);
}

static int unknown_key(struct sn_error *err, const char *file,
                       const struct sn_yaml *key, const char *where,
                       const char *const *keys)
{
    char msg[400];
    const char *near = sn_suggest(key->value, keys);

    if (near)
        snprintf(msg, sizeof(msg),
                 "unknown key '%.64s' in %s (did you "
                 "mean '%s'?)",
                 key->value, where, near);
    else {
        size_t off = (size_t)snprintf(msg, sizeof(msg),
                                      "unknown key '%.64s' in %s (expected "
                                      "one of: ",
                                      key->value, where);
        for (size_t i = 0; keys[i] && off < sizeof(msg); i++)
            off += (size_t)snprintf(msg + off, sizeof(msg) - off, "%s%s",
                                    i ? ", " : "", keys[i]);
        if (off < sizeof(msg))
            snprintf(msg + off, sizeof(msg) - off, ")");
    }
    return fail_at(err, file, key, msg);
}

static int get_time(const char *file, const struct sn_yaml *n, const char *what,
                    double min, double *out, struct sn_error *err)
{
    struct sn_error e;
    char msg[SN_ERROR_MSG_MAX + 128];
    double v;

    if (n->type != SN_YAML_SCALAR) {
        snprintf(msg, sizeof(msg),
                 "%s is %s (expected a time such as "
                 "10min)",
                 what, sn_yaml_type_name(n->type));
        return fail_at(err, file, n, msg);
    }
    if (sn_unit_parse(n->value, SN_UNIT_TIME, false, &v, &e)) {
        snprintf(msg, sizeof(msg), "%s: %s", what, e.msg);
        return fail_at(err, file, n, msg);
    }
    if (!(v >= min) || v > 1e9) {
        snprintf(msg, sizeof(msg),
                 "%s: %.64s is out of range (expected a "
                 "time of at least %gs)",
                 what, n->value, min);
        return fail_at(err, file, n, msg);
    }
    *out = v;
    return SN_OK;
}

int sn_goodput_parse(const char *file, const struct sn_yaml *sec,
                     struct sn_goodput_params *p, struct sn_error *err)
{
    static const char *const keys[] = {
        "fault_domain",       "spares", "restart", "repair", "checkpoint_write",
        "checkpoint_restore", "mtbf",   NULL,
    };
    static const char *const classes[] = {
        "accelerator",    "nic",      "host", "network",
        "scaleup_switch", "software", NULL,
    };
    char msg[300];
    int rc;

    if (!sec)
        return SN_OK;
    if (sec->type != SN_YAML_MAP)
        return fail_at(err, file, sec,
                       "reliability is not a mapping "
                       "(expected keys such as "
                       "fault_domain, spares, restart)");
    for (size_t i = 0; i < sec->n; i++) {
        const struct sn_yaml *k = sec->keys[i], *v = sec->items[i];
        const char *key = k->value;
        size_t j;

        for (j = 0; keys[j] && strcmp(keys[j], key); j++)
            ;
        if (!keys[j])
            return unknown_key(err, file, k, "reliability", keys);
        if (!strcmp(key, "fault_domain")) {
            if (v->type == SN_YAML_SCALAR && !strcmp(v->value, "job"))
                p->domain = SN_FAULT_JOB;
            else if (v->type == SN_YAML_SCALAR &&
                     !strcmp(v->value, "supernode"))
                p->domain = SN_FAULT_SUPERNODE;
            else {
                snprintf(msg, sizeof(msg),
                         "unknown reliability.fault_domain '%.64s' "
                         "(expected job or supernode)",
                         v->type == SN_YAML_SCALAR ? v->value : "?");
                return fail_at(err, file, v, msg);
            }
        } else if (!strcmp(key, "spares")) {
            long long n = -1;
            struct sn_error e;
            if (v->type != SN_YAML_SCALAR ||
                (strcmp(v->value, "unlimited") &&
                 sn_parse_long(v->value, 0, 100000, &n, &e))) {
                snprintf(msg, sizeof(msg),
                         "reliability.spares: '%.64s' (expected a whole "
                         "number of spare supernodes from 0 to 100000, or "
                         "unlimited)",
                         v->type == SN_YAML_SCALAR ? v->value : "?");
                return fail_at(err, file, v, msg);
            }
            p->spares = (int)n;
        } else if (!strcmp(key, "restart")) {
            rc = get_time(file, v, "reliability.restart", 0, &p->restart, err);
            if (rc)
                return rc;
        } else if (!strcmp(key, "repair")) {
            rc = get_time(file, v, "reliability.repair", 0, &p->repair, err);
            if (rc)
                return rc;
        } else if (!strcmp(key, "checkpoint_write")) {
            rc = get_time(file, v, "reliability.checkpoint_write", 0.001,
                          &p->checkpoint_write, err);
            if (rc)
                return rc;
        } else if (!strcmp(key, "checkpoint_restore")) {
            rc = get_time(file, v, "reliability.checkpoint_restore", 0.001,
                          &p->checkpoint_restore, err);
            if (rc)
                return rc;
        } else { /* mtbf */
            if (v->type != SN_YAML_MAP)
                return fail_at(err, file, v,
                               "reliability.mtbf is not a mapping "
                               "(expected component: time, such as "
                               "accelerator: 80000h)");
            for (size_t c = 0; c < v->n; c++) {
                const struct sn_yaml *ck = v->keys[c];
                size_t cl;
                double t;
                for (cl = 0; classes[cl] && strcmp(classes[cl], ck->value);
                     cl++)
                    ;
                if (!classes[cl])
                    return unknown_key(err, file, ck, "reliability.mtbf",
                                       classes);
                snprintf(msg, sizeof(msg), "reliability.mtbf.%s", classes[cl]);
                rc = get_time(file, v->items[c], msg, 1, &t, err);
                if (rc)
                    return rc;
                p->mtbf[cl] = t / 3600;
            }
        }
    }
    return SN_OK;
}

/* E[(X - k)+] for X ~ Poisson(mu): the supernodes in repair that k
 * spares do not cover, on average. */
static double poisson_excess(double mu, int k)
{
    double term = exp(-mu), below = 0;

    /* E[(X-k)+] = mu - k + sum_{i<k} (k - i) P(X = i) */
    for (int i = 0; i < k; i++) {
        below += (k - i) * term;
        term *= mu / (i + 1);
    }
    return fmax(0, mu - k + below);
}

/* P(X >= k) for X ~ Poisson(mu). */
static double poisson_tail(double mu, int k)
{
    double term = exp(-mu), cdf = 0;

    for (int i = 0; i < k; i++) {
        cdf += term;
        term *= mu / (i + 1);
    }
    return cdf >= 1 ? 0 : 1 - cdf;
}

int sn_goodput_compute(const struct sn_goodput_params *p,
                       const struct sn_goodput_job *job,
                       struct sn_goodput_result *r, struct sn_error *err)
{
    double units[SN_FAIL_COUNT], stop = 0, local = 0, S, M, d, R, tau, x;
    double nodes, out_time, supernodes_out;
    int per_sn = job->per_supernode > 0 ? job->per_supernode : job->accels;
    int per_node = job->per_node > 0 ? job->per_node : 1;

    memset(r, 0, sizeof(*r));
    if (job->accels < 1)
        return sn_error_set(err, SN_EINPUT, "goodput needs a job size");
    nodes = ceil((double)job->accels / per_node);
    S = ceil((double)job->accels / per_sn);
    units[SN_FAIL_ACCEL] = job->accels;
    units[SN_FAIL_NIC] = nodes * job->nics_per_node;
    units[SN_FAIL_HOST] = nodes;
    units[SN_FAIL_NETWORK] = job->accels;
    units[SN_FAIL_SCALEUP] = S * job->scaleup_switches;
    units[SN_FAIL_SOFTWARE] = job->accels;
    for (int c = 0; c < SN_FAIL_COUNT; c++) {
        bool job_wide = c == SN_FAIL_SOFTWARE || c == SN_FAIL_NETWORK;
        r->rate[c] = p->mtbf[c] > 0 ? units[c] / p->mtbf[c] : 0;
        if (job_wide || p->domain == SN_FAULT_JOB)
            stop += r->rate[c];
        if (!job_wide)
            local += r->rate[c];
    }
    r->mtbf = stop > 0 ? 3600 / stop : INFINITY;
    r->mtbf_supernode = local > 0 ? 3600 * S / local : INFINITY;

    /* checkpoint write (delta) and restore */
    if (p->checkpoint_write > 0)
        d = p->checkpoint_write;
    else if (job->write_bw > 0 && job->checkpoint_bytes > 0)
        d = job->checkpoint_bytes / job->write_bw;
    else
        return sn_error_set(err, SN_EINPUT,
                            "the checkpoint write time is unknown (give "
                            "storage.write_bandwidth or reliability."
                            "checkpoint_write)");
    r->checkpoint_write = d;
    R = p->restart;
    if (p->checkpoint_restore > 0)
        R += p->checkpoint_restore;
    else if (job->read_bw > 0)
        R += job->checkpoint_bytes / job->read_bw;
    else
        R += d; /* reading back takes what writing took */

    /* spares: supernodes under repair ~ Poisson(local rate x repair);
     * a hardware failure finds no spare when all are in repair, and then
     * waits for one to come back */
    if (p->spares >= 0)
        r->p_no_spare = poisson_tail(local / 3600 * p->repair, p->spares);
    out_time = p->restart + r->p_no_spare * p->repair;
    r->restart = R;

    /* Young (1974): sqrt(2 delta M); Daly (2006): the higher-order
     * estimate, M itself when delta >= 2M */
    M = r->mtbf;
    if (isinf(M)) {
        r->young = r->daly = r->interval = INFINITY;
    } else {
        r->young = sqrt(2 * d * M);
        if (d < 2 * M) {
            x = d / (2 * M);
            r->daly = sqrt(2 * d * M) * (1 + sqrt(x) / 3 + x / 9) - d;
        } else {
            r->daly = M;
        }
        r->interval = r->daly;
    }
    /* first-order waste (Dongarra, Herault, Robert 2015): checkpoints
     * delta/tau, rework tau/2 and restart R per interruption */
    tau = r->interval;
    if (!isinf(M)) {
        r->waste_checkpoint = d / tau;
        r->waste_rework = tau / 2 / M;
        r->waste_restart = R / M;
    }
    /* with a supernode fault domain a hardware failure takes 1/S of the
     * job out until it is back (restart, or repair without a spare) */
    if (p->domain == SN_FAULT_SUPERNODE) {
        supernodes_out = local / 3600 * out_time;
        r->waste_supernode = fmin(1, supernodes_out / S);
    } else if (p->spares >= 0) {
        /* every failure stops the job (Llama 3: 419 interruptions); the
         * job restarts without the failed supernode, which the spares
         * replace while they last, and runs a supernode short until it
         * is repaired: its share of the job, 1/S, for the repair time.
         * One supernode (S = 1) waits for the repair. */
        supernodes_out = poisson_excess(local / 3600 * p->repair, p->spares);
        r->waste_supernode = fmin(1, supernodes_out / S);
    }
    r->ettr = 1 - r->waste_checkpoint - r->waste_rework - r->waste_restart -
              r->waste_supernode;
    if (r->ettr < 0)
        r->ettr = 0;
    if (p->spares > 0)
        r->spare_fraction = (double)p->spares * per_sn /
                            (job->accels + (double)p->spares * per_sn);
    r->goodput = r->ettr * (1 - r->spare_fraction);
    r->domain = p->domain;
    r->spares = p->spares;
    r->repair = p->repair;
    return SN_OK;
}

void sn_goodput_assumption(const struct sn_goodput_result *r, char *buf,
                           size_t len)
{
    char sp[48];

    if (r->spares < 0)
        snprintf(sp, sizeof(sp), "a replacement always at hand");
    else
        snprintf(sp, sizeof(sp), "%d spare supernode%s", r->spares,
                 r->spares == 1 ? "" : "s");
    snprintf(buf, len,
             "%s; a failed supernode is out of the job until repaired "
             "(%.0f h), %s (reliability: fault_domain, spares, repair)",
             r->domain == SN_FAULT_JOB
                 ? "every failure stops the job"
                 : "software and network failures stop the job, hardware "
                   "failures take their supernode out",
             r->repair / 3600, sp);
}

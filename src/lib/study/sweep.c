/* sweep.c: a design parameter swept over values. Each value re-validates
 * the spec (sn_spec_set), rebuilds the topology, re-plans (links, switch
 * chips, power) and re-predicts training: the fastest layout that fits,
 * and goodput with the fault domain that design implies. The sweet spot
 * is the value with the most goodput-weighted tokens per accelerator:
 * what a larger scale-up domain gains in communication against what its
 * larger fault domain and spares cost. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sn/model.h"
#include "sn/plan.h"
#include "sweep-int.h"

static void point_error(struct sn_sweep_point *p, const struct sn_error *e)
{
    p->ok = false;
    snprintf(p->error, sizeof(p->error), "%s", e->msg);
}

int sn__sweep_spec(const struct sn_sweep *s, const char *value,
                   struct sn_spec *spec, struct sn_error *e)
{
    int rc;

    rc = sn_spec_load(s->spec_path, spec, e);
    if (rc)
        return rc;
    for (size_t i = 0; i < s->nfixed && !rc; i++)
        rc = sn_spec_set(spec, s->fixed_keys[i], s->fixed_values[i], e);
    if (!rc)
        rc = sn_spec_set(spec, s->key, value, e);
    /* a job of a fixed size gets the supernodes it needs, no more, so
     * that the designs (and their plans: links, switch chips, power)
     * compare at equal size */
    if (!rc && s->gpus > 0 && strcmp(s->key, "supernodes")) {
        char count[32];
        int per = spec->scaleup.accelerators;
        snprintf(count, sizeof(count), "%d", (s->gpus + per - 1) / per);
        rc = sn_spec_set(spec, "supernodes", count, e);
    }
    if (rc)
        sn_spec_release(spec);
    return rc;
}

/* The point's design from its plan: accelerators (of the design and of
 * the job), domain, links, switch chips, power. */
static void point_design(const struct sn_sweep *s, const struct sn_spec *spec,
                         const struct sn_plan *plan, struct sn_sweep_point *p)
{
    p->design_accels = sn_spec_total_accels(spec);
    p->accels = s->gpus > 0 ? s->gpus : p->design_accels;
    p->domain = spec->scaleup.accelerators;
    p->links = plan->links_total;
    p->switch_chips = plan->switch_chips;
    p->power_w = plan->steady_w;
    p->facility_w = plan->facility_w;
}

/* The fastest layout of model m that fits the point's job into p->best;
 * false (with the point's error) when the search fails or none fits. */
static bool point_search(const struct sn_sweep *s,
                         const struct sn_model_info *m,
                         const struct sn_train_env *env,
                         const struct sn_spec *spec, struct sn_sweep_point *p)
{
    struct sn_train *t = NULL;
    struct sn_train_search q;
    struct sn_train_opts o;
    struct sn_train_search_stats st;
    struct sn_error e;
    size_t n = 0;
    int seq;
    bool ok = false;

    if (sn_train_new(m, &env->sys, &t, &e)) {
        point_error(p, &e);
        goto out;
    }
    seq = s->seq > 0 ? s->seq : (m->seq > 0 ? m->seq : 2048);
    sn_train_search_default(&q);
    q.accels = p->accels;
    q.seq = seq;
    q.gbs = s->gbs > 0 ? s->gbs : sn_train_default_gbs(p->accels, seq);
    q.dtype = s->dtype;
    sn_train_opts_default(&o);
    /* the spec's software: section, when it has one (sim train's) */
    {
        const struct sn_train_software *sw;
        if (sn_train_software_parse(
                spec->file, sn_spec_section(spec, "software"), &sw, &o, &e)) {
            point_error(p, &e);
            goto out;
        }
    }
    if (sn_train_search_run(t, &q, &o, &p->best, 1, &n, &st, &e)) {
        point_error(p, &e);
        goto out;
    }
    if (!n) {
        snprintf(p->error, sizeof(p->error), "no layout of %s fits on %d x %s",
                 m->name, p->accels, spec->accel->name);
        p->ok = false;
        goto out;
    }
    ok = true;
out:
    sn_train_free(t);
    return ok;
}

/* The goodput job of the point: its accelerators, fault domains,
 * switches and checkpoint (14 bytes per parameter unless the storage
 * section says). */
static void goodput_job(const struct sn_spec *spec,
                        const struct sn_model_info *m, int accels,
                        struct sn_goodput_job *job)
{
    job->accels = accels;
    job->per_supernode = spec->scaleup.accelerators;
    job->per_node = spec->scaleup.per_node;
    job->nics_per_node = spec->scaleout.nics_per_node;
    job->scaleup_switches =
        spec->scaleup.switches_per_plane *
        (spec->scaleup.planes > 0 ? spec->scaleup.planes : 1) *
        (spec->scaleup.tiers > 1 ? 2 : 1);
    job->checkpoint_bytes = m->params * (spec->storage.bytes_per_param > 0
                                             ? spec->storage.bytes_per_param
                                             : 14);
    job->write_bw = spec->storage.write_bw;
    job->read_bw = spec->storage.read_bw;
}

/* Goodput of the point's job under the spec's reliability section, and
 * the effective throughput per accelerator of the design; the point's
 * error when the section does not parse. */
static void point_goodput(const struct sn_spec *spec,
                          const struct sn_model_info *m,
                          struct sn_sweep_point *p)
{
    struct sn_goodput_params gp;
    struct sn_goodput_job job = {0};
    struct sn_error e;

    sn_goodput_params_default(&gp);
    if (sn_goodput_parse(spec->file, sn_spec_section(spec, "reliability"), &gp,
                         &e)) {
        point_error(p, &e);
        return;
    }
    goodput_job(spec, m, p->accels, &job);
    p->have_goodput = sn_goodput_compute(&gp, &job, &p->goodput, &e) == SN_OK;
    /* per accelerator of the design: a 256-GPU job on four 72-GPU
     * domains leaves 32 idle, and their links and power are planned */
    p->effective_per_accel = p->best.result.tokens_per_s *
                             (p->have_goodput ? p->goodput.goodput : 1) /
                             p->design_accels;
}

int sn__sweep_design_open(const struct sn_sweep *s, const char *value,
                          struct sn__sweep_design *d, struct sn_error *e)
{
    int rc;

    memset(d, 0, sizeof(*d));
    if ((rc = sn__sweep_spec(s, value, &d->spec, e)))
        return rc;
    d->have_spec = true;
    if ((rc = sn_topo_build(&d->spec, &d->topo, e)) ||
        (rc = sn_plan_build(d->topo, &d->plan, e)) ||
        (rc = sn_train_env_init(&d->env, &d->spec, e)))
        return rc;
    d->have_env = true;
    return SN_OK;
}

void sn__sweep_design_close(struct sn__sweep_design *d)
{
    if (d->have_env)
        sn_train_env_release(&d->env);
    sn_plan_free(d->plan);
    sn_topo_free(d->topo);
    if (d->have_spec)
        sn_spec_release(&d->spec);
}

/* One point of the sweep: the design at p->value re-planned, its best
 * layout and its goodput; p->ok false with the error when it fails. */
static void one(const struct sn_sweep *s, struct sn_sweep_point *p)
{
    struct sn__sweep_design d;
    struct sn_error e;
    const struct sn_model_info *m;

    p->ok = true;
    if (sn__sweep_design_open(s, p->value, &d, &e)) {
        point_error(p, &e);
        goto out;
    }
    m = s->model ? s->model : d.spec.workload.model;
    if (!m) {
        snprintf(p->error, sizeof(p->error),
                 "no model (give --model or workload.model)");
        p->ok = false;
        goto out;
    }
    point_design(s, &d.spec, d.plan, p);
    if (p->accels > sn_spec_total_accels(&d.spec)) {
        snprintf(p->error, sizeof(p->error),
                 "the design has %d accelerators, fewer than the %d of "
                 "the job",
                 sn_spec_total_accels(&d.spec), p->accels);
        p->ok = false;
        goto out;
    }
    if (!point_search(s, m, &d.env, &d.spec, p))
        goto out;
    p->have_best = true;
    p->tokens_per_accel = p->best.result.tokens_per_s / p->accels;
    p->have_band = sn_train_band(m, d.spec.accel->name, &p->band);
    p->gaps = sn_train_gaps(m, &p->best.layout, d.spec.accel->name,
                            !sn_spec_section(&d.spec, "software"));
    point_goodput(&d.spec, m, p);
out:
    sn__sweep_design_close(&d);
}

/* The job every design runs when the caller gives none: the spec as
 * given, with the fixed keys, before the swept value. 0 when that spec
 * does not load (each point then reports why). */
static int default_job(const struct sn_sweep *s)
{
    struct sn_spec base;
    struct sn_error e;
    int n = 0;

    if (sn_spec_load(s->spec_path, &base, &e))
        return 0;
    for (size_t i = 0; i < s->nfixed; i++)
        if (sn_spec_set(&base, s->fixed_keys[i], s->fixed_values[i], &e))
            goto out;
    n = sn_spec_total_accels(&base);
out:
    sn_spec_release(&base);
    return n;
}

/* Every value must give a spec that validates (with the fixed keys
 * before it), checked before any point is predicted: a value that does
 * not parse ("abc" for a count) is a mistake in the command, not a row of
 * the results. */
int sn__sweep_check(const struct sn_sweep *s, struct sn_error *err)
{
    struct sn_spec spec;
    struct sn_error e;
    int rc = SN_OK;

    if (!s->key || !s->nvalues)
        return sn_error_set(err, SN_EINPUT, "a sweep needs a key and values");
    if (s->nvalues > SN_SWEEP_MAX_VALUES)
        return sn_error_set(err, SN_EINPUT, "%zu values to sweep (at most %d)",
                            s->nvalues, SN_SWEEP_MAX_VALUES);
    for (size_t v = 0; v < s->nvalues && !rc; v++) {
        if ((rc = sn_spec_load(s->spec_path, &spec, err)))
            return rc;
        for (size_t i = 0; i < s->nfixed && !rc; i++)
            if (sn_spec_set(&spec, s->fixed_keys[i], s->fixed_values[i], &e))
                rc = sn_error_set(err, e.code, "--set %s=%s: %s",
                                  s->fixed_keys[i], s->fixed_values[i], e.msg);
        if (!rc && sn_spec_set(&spec, s->key, s->values[v], &e))
            rc = sn_error_set(err, e.code,
                              "--set %s: value %zu of %zu, "
                              "'%s': %s",
                              s->key, v + 1, s->nvalues, s->values[v], e.msg);
        sn_spec_release(&spec);
    }
    return rc;
}

bool sn_sweep_grows_job(const char *key)
{
    return key && !strcmp(key, "supernodes");
}

int sn_sweep_run(const struct sn_sweep *s, struct sn_sweep_point *pts,
                 struct sn_error *err)
{
    size_t best = SIZE_MAX;
    struct sn_sweep job = *s;
    int rc;

    if ((rc = sn__sweep_check(s, err)))
        return rc;
    /* Designs compare at equal job size: per-accelerator throughput and
     * goodput of a 32-GPU job against a 256-GPU one would mark the
     * smallest design for being small. Only a sweep of the supernode
     * count itself varies the job. */
    if (job.gpus <= 0 && strcmp(s->key, "supernodes"))
        job.gpus = default_job(s);
    for (size_t i = 0; i < s->nvalues; i++) {
        memset(&pts[i], 0, sizeof(pts[i]));
        pts[i].value = s->values[i];
        one(&job, &pts[i]);
        if (!pts[i].ok)
            continue;
        if (best == SIZE_MAX ||
            pts[i].effective_per_accel > pts[best].effective_per_accel ||
            (pts[i].effective_per_accel == pts[best].effective_per_accel &&
             pts[i].switch_chips < pts[best].switch_chips))
            best = i;
    }
    /* a sweep of the supernode count grows the job: its per-accelerator
     * throughput only falls (scale-out traffic, failures), so the first
     * value would always be marked; say what is kept instead */
    for (size_t i = 0, first = SIZE_MAX; i < s->nvalues; i++) {
        if (!pts[i].ok || !(pts[i].effective_per_accel > 0))
            continue;
        if (first == SIZE_MAX)
            first = i;
        pts[i].scaling =
            pts[i].effective_per_accel / pts[first].effective_per_accel;
    }
    if (best != SIZE_MAX && !sn_sweep_grows_job(s->key))
        pts[best].best_value = true;
    return SN_OK;
}

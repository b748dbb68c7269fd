/* export.c: a run as an SN_SCHEMA_RUN JSON document and back, so that
 * results move between sites and a run measured elsewhere can be checked
 * here. The reader goes through the YAML loader (JSON is YAML) and so
 * gets its positions, caps and refusals for free. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sn/schema.h"
#include "store-int.h"

static const char *const subject_names[] = {"device", "pair", "group"};

static void put_rank(struct sn_json *j, const char *key, uint32_t r)
{
    sn_json_key(j, key);
    if (r == SN_STORE_NO_RANK)
        sn_json_null(j);
    else
        sn_json_int(j, r);
}

void sn_store_run_json(struct sn_json *j, const struct sn_run *run,
                       const struct sn_results *rs,
                       const struct sn_store_finding *f, size_t nf,
                       const struct sn_store_health *h, size_t nh, bool samples)
{
    char subj[64];

    sn_json_obj_begin(j);
    sn_json_kstr(j, "schema", SN_SCHEMA_RUN);
    sn_json_kint(j, "id", run->id);
    sn_json_kstr(j, "started", run->started);
    sn_json_kstr(j, "finished", run->finished);
    sn_json_kstr(j, "host", run->host);
    sn_json_kstr(j, "user", run->user);
    sn_json_kstr(j, "tool", run->tool);
    sn_json_kstr(j, "versions", run->versions);
    sn_json_kstr(j, "spec_name", run->spec_name);
    sn_json_kstr(j, "spec_hash", run->spec_hash);
    sn_json_kstr(j, "suite", run->suite);
    sn_json_kstr(j, "backend", run->backend);
    sn_json_kint(j, "ranks", run->ranks);
    sn_json_kbool(j, "complete", run->complete);
    sn_json_kstr(j, "verdict", run->verdict);
    sn_json_kint(j, "nresults", (long long)(rs ? rs->n : run->nresults));
    sn_json_kint(j, "nfindings", (long long)(rs ? nf : run->nfindings));
    if (!rs) {
        sn_json_obj_end(j);
        return;
    }
    sn_json_key(j, "results");
    sn_json_arr_begin(j);
    for (size_t i = 0; i < rs->n; i++) {
        const struct sn_result *r = &rs->items[i];
        char params[SN_RESULT_PARAMS_MAX];
        sn_json_obj_begin(j);
        sn_json_kstr(j, "test", r->test);
        sn_json_kstr(j, "params",
                     sn__store_result_params(r, params, sizeof(params)));
        sn_json_kstr(j, "subject",
                     r->subject < SN_ARRAY_LEN(subject_names)
                         ? subject_names[r->subject]
                         : "?");
        sn_json_kstr(j, "name", sn_result_subject(r, subj, sizeof(subj)));
        put_rank(j, "a", r->a);
        put_rank(j, "b", r->b);
        put_rank(j, "round", r->round);
        sn_json_kstr(j, "unit", r->unit);
        sn_json_kbool(j, "lower_better", r->lower_better);
        sn_json_kint(j, "n", (long long)r->stats.n);
        sn_json_knum(j, "median", r->stats.median);
        sn_json_knum(j, "mean", r->stats.mean);
        sn_json_knum(j, "min", r->stats.min);
        sn_json_knum(j, "max", r->stats.max);
        sn_json_knum(j, "mad", r->stats.mad);
        sn_json_knum(j, "stddev", r->stats.stddev);
        if (samples) {
            sn_json_key(j, "samples");
            sn_json_arr_begin(j);
            for (size_t k = 0; k < r->nsamples; k++)
                sn_json_num(j, r->samples[k]);
            sn_json_arr_end(j);
        }
        sn_json_obj_end(j);
    }
    sn_json_arr_end(j);
    sn_json_key(j, "findings");
    sn_json_arr_begin(j);
    for (size_t i = 0; i < nf; i++) {
        sn_json_obj_begin(j);
        sn_json_kstr(j, "severity", f[i].severity);
        sn_json_kstr(j, "kind", f[i].kind);
        sn_json_kstr(j, "subject", f[i].subject);
        sn_json_kstr(j, "label", f[i].label);
        sn_json_kstr(j, "summary", f[i].summary ? f[i].summary : "");
        sn_json_obj_end(j);
    }
    sn_json_arr_end(j);
    sn_json_key(j, "health");
    sn_json_arr_begin(j);
    for (size_t i = 0; i < nh; i++) {
        sn_json_obj_begin(j);
        sn_json_kstr(j, "host", h[i].host);
        sn_json_kstr(j, "name", h[i].name);
        sn_json_kstr(j, "status", h[i].status);
        sn_json_kstr(j, "subject", h[i].subject);
        sn_json_kstr(j, "evidence", h[i].evidence ? h[i].evidence : "");
        sn_json_kstr(j, "remedy", h[i].remedy ? h[i].remedy : "");
        sn_json_obj_end(j);
    }
    sn_json_arr_end(j);
    sn_json_obj_end(j);
}

/* ---- reading ------------------------------------------------------------- */

struct reader {
    const char *file;
    struct sn_error *err;
    int flags; /* how get_str() cleans: SN_CLEAN_LINES for free text */
    int ranks; /* the run's ranks, once read (0: not said) */
};

static int bad(struct reader *rd, const struct sn_yaml *n, const char *fmt,
               const char *what)
{
    return sn_error_at(rd->err, SN_EINPUT, rd->file, n ? n->line : 0,
                       n ? n->col : 0, fmt, what);
}

static int get_str(struct reader *rd, const struct sn_yaml *map,
                   const char *key, bool required, char *buf, size_t size)
{
    const struct sn_yaml *v = sn_yaml_get(map, key);
    struct sn_buf clean;

    buf[0] = '\0';
    if (!v) {
        if (required)
            return sn_error_at(rd->err, SN_EINPUT, rd->file, map->line,
                               map->col, "missing key '%s'", key);
        return SN_OK;
    }
    if (v->type != SN_YAML_SCALAR)
        return bad(rd, v, "'%s' must be a string", key);
    /* a document made elsewhere is the machine's words twice over: its
     * strings (a host of "\u001b]0;...") are cleaned before they are
     * measured and kept */
    sn_buf_init(&clean);
    sn_buf_put_clean(&clean, v->value, strlen(v->value), rd->flags);
    if (clean.len >= size) {
        sn_buf_release(&clean);
        return sn_error_at(rd->err, SN_EINPUT, rd->file, v->line, v->col,
                           "'%s' is longer than %zu characters", key, size - 1);
    }
    sn_strlcpy(buf, clean.len ? clean.data : "", size);
    sn_buf_release(&clean);
    return SN_OK;
}

static int scalar_num(struct reader *rd, const struct sn_yaml *v,
                      const char *key, double *out)
{
    struct sn_error e;

    if (!v || v->type != SN_YAML_SCALAR || sn_parse_double(v->value, out, &e))
        return sn_error_at(rd->err, SN_EINPUT, rd->file, v ? v->line : 0,
                           v ? v->col : 0, "'%s' must be a number", key);
    return SN_OK;
}

static int get_rank(struct reader *rd, const struct sn_yaml *map,
                    const char *key, uint32_t *out)
{
    const struct sn_yaml *v = sn_yaml_get(map, key);
    long long r;
    struct sn_error e;

    *out = SN_STORE_NO_RANK;
    if (!v || (v->type == SN_YAML_SCALAR && !v->quoted &&
               strcmp(v->value, "null") == 0))
        return SN_OK;
    if (v->type != SN_YAML_SCALAR ||
        sn_parse_long(v->value, 0, (long long)UINT32_MAX - 1, &r, &e))
        return sn_error_at(rd->err, SN_EINPUT, rd->file, v->line, v->col,
                           "'%s' must be a rank (0 to %u) or null", key,
                           UINT32_MAX - 1);
    *out = (uint32_t)r;
    return SN_OK;
}

static int get_bool(struct reader *rd, const struct sn_yaml *map,
                    const char *key, bool *out)
{
    const struct sn_yaml *v = sn_yaml_get(map, key);

    *out = false;
    if (!v)
        return SN_OK;
    if (v->type == SN_YAML_SCALAR && strcmp(v->value, "true") == 0)
        *out = true;
    else if (!(v->type == SN_YAML_SCALAR && strcmp(v->value, "false") == 0))
        return bad(rd, v, "'%s' must be true or false", key);
    return SN_OK;
}

/* A time as the store writes it, "2026-11-29T10:00:00Z" (UTC, whole
 * seconds), that names a real second: not "2026-02-30", not hour 24,
 * not before the Unix epoch, not more than a day after now (a clock
 * off by a time zone is not refused; a run cannot end in next year).
 * *t: its Unix time. */
static int read_time(struct reader *rd, const struct sn_yaml *root,
                     const char *key, const char *text, double *t)
{
    const struct sn_yaml *v = sn_yaml_get(root, key);
    struct tm tm, back;
    time_t u;
    int n = -1;

    memset(&tm, 0, sizeof(tm));
    if (sscanf(text, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &tm.tm_year, &tm.tm_mon,
               &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6 ||
        n != 20 || text[n] != '\0')
        return sn_error_at(rd->err, SN_EINPUT, rd->file, v->line, v->col,
                           "'%s' must be a UTC time such as "
                           "2026-11-29T10:00:00Z, not '%s'",
                           key, text);
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    back = tm;
    u = timegm(&back);
    /* timegm() carries what is out of range into the next field: a time
     * that names no second comes back changed */
    if (back.tm_year != tm.tm_year || back.tm_mon != tm.tm_mon ||
        back.tm_mday != tm.tm_mday || back.tm_hour != tm.tm_hour ||
        back.tm_min != tm.tm_min || back.tm_sec != tm.tm_sec)
        return sn_error_at(rd->err, SN_EINPUT, rd->file, v->line, v->col,
                           "'%s' is '%s', which is no such time", key, text);
    if (u < 0 || (double)u > (double)time(NULL) + 86400)
        return sn_error_at(rd->err, SN_EINPUT, rd->file, v->line, v->col,
                           "'%s' is '%s', %s", key, text,
                           u < 0 ? "before 1970" : "in the future");
    *t = (double)u;
    return SN_OK;
}

/* A count the document states (nresults, nfindings, a result's n) that
 * must be what it holds: a file that contradicts itself was edited or
 * cut, and which of the two is right cannot be told. Absent is fine. */
static int check_count(struct reader *rd, const struct sn_yaml *map,
                       const char *key, size_t holds, const char *what)
{
    const struct sn_yaml *v = sn_yaml_get(map, key);
    double n;

    if (!v)
        return SN_OK;
    if (scalar_num(rd, v, key, &n))
        return SN_EINPUT;
    if (n != (double)holds)
        return sn_error_at(rd->err, SN_EINPUT, rd->file, v->line, v->col,
                           "'%s' is %s but there are %zu %s", key, v->value,
                           holds, what);
    return SN_OK;
}

static int read_result(struct reader *rd, const struct sn_yaml *m,
                       struct sn_results *rs)
{
    struct sn_result r;
    const struct sn_yaml *v;
    char subject[16];
    int rc;

    memset(&r, 0, sizeof(r));
    if (m->type != SN_YAML_MAP)
        return bad(rd, m, "a result must be %s", "a mapping");
    rc = get_str(rd, m, "test", true, r.test, sizeof(r.test));
    if (!rc)
        rc = get_str(rd, m, "params", false, r.params, sizeof(r.params));
    if (!rc)
        sn_result_params_read(&r);
    if (!rc)
        rc = get_str(rd, m, "unit", true, r.unit, sizeof(r.unit));
    if (!rc)
        rc = get_str(rd, m, "subject", true, subject, sizeof(subject));
    if (rc)
        return rc;
    for (r.subject = 0; r.subject < SN_ARRAY_LEN(subject_names); r.subject++)
        if (strcmp(subject, subject_names[r.subject]) == 0)
            break;
    if (r.subject == SN_ARRAY_LEN(subject_names))
        return bad(rd, sn_yaml_get(m, "subject"),
                   "unknown subject '%s' (expected device, pair or group)",
                   subject);
    rc = get_rank(rd, m, "a", &r.a);
    if (!rc)
        rc = get_rank(rd, m, "b", &r.b);
    if (!rc)
        rc = get_rank(rd, m, "round", &r.round);
    if (!rc)
        rc = get_bool(rd, m, "lower_better", &r.lower_better);
    if (rc)
        return rc;
    if (r.a == SN_STORE_NO_RANK ||
        (r.subject != SN_SUBJECT_DEVICE && r.b == SN_STORE_NO_RANK))
        return bad(rd, m, "a %s result needs its ranks ('a' and 'b')", subject);
    v = sn_yaml_get(m, "samples");
    if (!v || v->type != SN_YAML_SEQ || v->n == 0)
        return bad(rd, v ? v : m, "'samples' must be %s",
                   "a non-empty list of numbers");
    if (v->n > SN_STORE_MAX_SAMPLES)
        return sn_error_at(rd->err, SN_EINPUT, rd->file, v->line, v->col,
                           "%zu samples (at most %d)", v->n,
                           SN_STORE_MAX_SAMPLES);
    rc = check_count(rd, m, "n", v->n, "samples");
    /* a rank the run did not have (when it says how many it had) */
    for (int k = 0; !rc && k < 2; k++) {
        uint32_t rank = k ? r.b : r.a;
        const struct sn_yaml *at = sn_yaml_get(m, k ? "b" : "a");
        if (rd->ranks > 0 && rank != SN_STORE_NO_RANK &&
            rank >= (uint32_t)rd->ranks)
            rc = sn_error_at(rd->err, SN_EINPUT, rd->file, at->line, at->col,
                             "rank %u is past the run's %d ranks", rank,
                             rd->ranks);
    }
    if (rc)
        return rc;
    r.samples = sn_xmalloc(v->n * sizeof(double));
    r.nsamples = v->n;
    for (size_t i = 0; !rc && i < v->n; i++)
        rc = scalar_num(rd, v->items[i], "samples", &r.samples[i]);
    if (!rc) {
        sn_stats_compute(r.samples, r.nsamples, &r.stats);
        sn_results_add(rs, &r);
    }
    free(r.samples);
    return rc;
}

static int read_finding(struct reader *rd, const struct sn_yaml *m,
                        struct sn_store_finding *f)
{
    char summary[2048];
    int rc;

    memset(f, 0, sizeof(*f));
    if (m->type != SN_YAML_MAP)
        return bad(rd, m, "a finding must be %s", "a mapping");
    rc = get_str(rd, m, "severity", true, f->severity, sizeof(f->severity));
    if (!rc)
        rc = get_str(rd, m, "kind", false, f->kind, sizeof(f->kind));
    if (!rc)
        rc = get_str(rd, m, "subject", false, f->subject, sizeof(f->subject));
    if (!rc)
        rc = get_str(rd, m, "label", false, f->label, sizeof(f->label));
    if (!rc) {
        rd->flags = SN_CLEAN_LINES;
        rc = get_str(rd, m, "summary", false, summary, sizeof(summary));
        rd->flags = 0;
    }
    if (!rc && strcmp(f->severity, "PASS") && strcmp(f->severity, "WARN") &&
        strcmp(f->severity, "FAIL"))
        rc = bad(rd, sn_yaml_get(m, "severity"),
                 "unknown severity '%s' (expected PASS, WARN or FAIL)",
                 f->severity);
    if (!rc)
        f->summary = sn_xstrdup(summary);
    return rc;
}

/* One node-health check of a run document. */
static int read_health(struct reader *rd, const struct sn_yaml *m,
                       struct sn_store_health *h)
{
    char evidence[2048], remedy[2048];
    int rc;

    memset(h, 0, sizeof(*h));
    if (m->type != SN_YAML_MAP)
        return bad(rd, m, "a health check must be %s", "a mapping");
    rc = get_str(rd, m, "host", true, h->host, sizeof(h->host));
    if (!rc)
        rc = get_str(rd, m, "name", true, h->name, sizeof(h->name));
    if (!rc)
        rc = get_str(rd, m, "status", true, h->status, sizeof(h->status));
    if (!rc)
        rc = get_str(rd, m, "subject", false, h->subject, sizeof(h->subject));
    rd->flags = SN_CLEAN_LINES;
    if (!rc)
        rc = get_str(rd, m, "evidence", false, evidence, sizeof(evidence));
    if (!rc)
        rc = get_str(rd, m, "remedy", false, remedy, sizeof(remedy));
    rd->flags = 0;
    if (!rc && sn__store_health_valid(h, 1, NULL))
        rc = bad(rd, sn_yaml_get(m, "status"),
                 "unknown status '%s' (expected PASS, SKIP, WARN or FAIL)",
                 h->status);
    if (!rc) {
        h->evidence = sn_xstrdup(evidence);
        h->remedy = sn_xstrdup(remedy);
    }
    return rc;
}

int sn_store_run_parse(const char *file, const char *text, size_t len,
                       struct sn_run *run, struct sn_results *rs,
                       struct sn_store_finding **f, size_t *nf,
                       struct sn_store_health **h, size_t *nh,
                       struct sn_error *err)
{
    struct sn_yaml_doc doc;
    struct reader rd = {file, err, 0, 0};
    double started = 0, finished = 0;
    const struct sn_yaml *root, *v;
    char schema[64];
    double ranks = 0;
    int rc;

    memset(run, 0, sizeof(*run));
    sn_results_init(rs);
    *f = NULL;
    *nf = 0;
    *h = NULL;
    *nh = 0;
    rc = sn_yaml_parse(file, text, len, &doc, err);
    if (rc)
        return rc;
    root = doc.root;
    if (!root || root->type != SN_YAML_MAP) {
        rc = bad(&rd, root, "expected a \"%s\" object", SN_SCHEMA_RUN);
        goto out;
    }
    rc = get_str(&rd, root, "schema", true, schema, sizeof(schema));
    if (!rc && strcmp(schema, SN_SCHEMA_RUN) != 0)
        rc = bad(&rd, sn_yaml_get(root, "schema"),
                 "schema '%s' is not a run (expected \"" SN_SCHEMA_RUN "\")",
                 schema);
    if (!rc)
        rc = get_str(&rd, root, "started", true, run->started,
                     sizeof(run->started));
    if (!rc)
        rc = get_str(&rd, root, "finished", false, run->finished,
                     sizeof(run->finished));
    if (!rc)
        rc = read_time(&rd, root, "started", run->started, &started);
    if (!rc && run->finished[0])
        rc = read_time(&rd, root, "finished", run->finished, &finished);
    if (!rc && run->finished[0] && finished < started)
        rc = sn_error_at(err, SN_EINPUT, file,
                         sn_yaml_get(root, "finished")->line,
                         sn_yaml_get(root, "finished")->col,
                         "'finished' (%s) is before 'started' (%s)",
                         run->finished, run->started);
    if (!rc)
        rc = get_str(&rd, root, "host", false, run->host, sizeof(run->host));
    if (!rc)
        rc = get_str(&rd, root, "user", false, run->user, sizeof(run->user));
    if (!rc)
        rc = get_str(&rd, root, "tool", false, run->tool, sizeof(run->tool));
    if (!rc)
        rc = get_str(&rd, root, "versions", false, run->versions,
                     sizeof(run->versions));
    if (!rc)
        rc = get_str(&rd, root, "spec_name", false, run->spec_name,
                     sizeof(run->spec_name));
    if (!rc)
        rc = get_str(&rd, root, "spec_hash", false, run->spec_hash,
                     sizeof(run->spec_hash));
    if (!rc)
        rc = get_str(&rd, root, "suite", false, run->suite, sizeof(run->suite));
    if (!rc)
        rc = get_str(&rd, root, "backend", false, run->backend,
                     sizeof(run->backend));
    if (!rc)
        rc = get_str(&rd, root, "verdict", false, run->verdict,
                     sizeof(run->verdict));
    if (!rc)
        rc = get_bool(&rd, root, "complete", &run->complete);
    if (!rc && (v = sn_yaml_get(root, "ranks")) != NULL) {
        rc = scalar_num(&rd, v, "ranks", &ranks);
        if (!rc && !(ranks >= 0 && ranks <= 1e7))
            rc = bad(&rd, v, "'%s' must be 0 to 10000000", "ranks");
        run->ranks = (int)ranks;
        if (!rc && ranks != floor(ranks))
            rc = bad(&rd, v, "'%s' must be a whole number", "ranks");
        rd.ranks = run->ranks;
    }
    if (rc)
        goto out;
    v = sn_yaml_get(root, "results");
    if (!v || v->type != SN_YAML_SEQ) {
        rc = bad(&rd, v ? v : root, "'results' must be %s", "a list");
        goto out;
    }
    for (size_t i = 0; !rc && i < v->n; i++)
        rc = read_result(&rd, v->items[i], rs);
    if (!rc)
        rc = check_count(&rd, root, "nresults", v->n, "results");
    v = sn_yaml_get(root, "findings");
    if (!rc && v && v->type != SN_YAML_SEQ)
        rc = bad(&rd, v, "'findings' must be %s", "a list");
    if (!rc && v && v->n) {
        *f = sn_xcalloc(v->n, sizeof(**f));
        for (size_t i = 0; !rc && i < v->n; i++) {
            rc = read_finding(&rd, v->items[i], &(*f)[i]);
            (*nf)++;
        }
    }
    if (!rc)
        rc = check_count(&rd, root, "nfindings", v ? v->n : 0, "findings");
    v = sn_yaml_get(root, "health");
    if (!rc && v && v->type != SN_YAML_SEQ)
        rc = bad(&rd, v, "'health' must be %s", "a list");
    if (!rc && v && v->n > SN_STORE_MAX_HEALTH)
        rc = sn_error_at(err, SN_EINPUT, file, v->line, v->col,
                         "%zu health checks (at most %d)", v->n,
                         SN_STORE_MAX_HEALTH);
    if (!rc && v && v->n) {
        *h = sn_xcalloc(v->n, sizeof(**h));
        for (size_t i = 0; !rc && i < v->n; i++) {
            rc = read_health(&rd, v->items[i], &(*h)[i]);
            (*nh)++;
        }
    }
out:
    sn_yaml_doc_release(&doc);
    if (rc) {
        sn_results_release(rs);
        sn_store_findings_release(*f, *nf);
        *f = NULL;
        *nf = 0;
        sn_store_health_release(*h, *nh);
        *h = NULL;
        *nh = 0;
        memset(run, 0, sizeof(*run));
    }
    return rc;
}

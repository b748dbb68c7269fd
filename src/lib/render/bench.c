/* bench.c (render): bench results as an SN_SCHEMA_BENCH JSON document
 * and as text tables in the column names of the tools people compare
 * with (nccl-tests, STREAM, nvbandwidth, OSU). Declared in sn/bench.h. */
#include <ctype.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sn/bench.h"
#include "sn/render.h"

/* Measured against the design: value / expected, or expected / value for
 * times, so that 100% is the design and less is worse either way. */
static double efficiency(const struct sn_bench_result *r)
{
    if (!(r->expected > 0) || !(r->stats.median > 0))
        return NAN;
    return !strcmp(r->unit, "s") ? r->expected / r->stats.median
                                 : r->stats.median / r->expected;
}

/* ---- JSON
 * ---------------------------------------------------------------------- */

static void json_stats(struct sn_json *j, const struct sn_stats *s)
{
    sn_json_obj_begin(j);
    sn_json_kint(j, "n", s->n);
    sn_json_knum(j, "median", s->median);
    sn_json_knum(j, "mean", s->mean);
    sn_json_knum(j, "min", s->min);
    sn_json_knum(j, "max", s->max);
    sn_json_knum(j, "stddev", s->stddev);
    sn_json_knum(j, "cv", s->cv);
    sn_json_knum(j, "p5", s->p5);
    sn_json_knum(j, "p90", s->p90);
    sn_json_knum(j, "p95", s->p95);
    sn_json_knum(j, "p99", s->p99);
    sn_json_knum(j, "p999", s->p999);
    sn_json_key(j, "ci95");
    if (isfinite(s->ci_lo)) {
        sn_json_arr_begin(j);
        sn_json_num(j, s->ci_lo);
        sn_json_num(j, s->ci_hi);
        sn_json_arr_end(j);
    } else {
        sn_json_null(j);
    }
    sn_json_obj_end(j);
}

static void json_state(struct sn_json *j, const struct sn_bench_state *s)
{
    if (!s->valid) {
        sn_json_null(j);
        return;
    }
    sn_json_obj_begin(j);
    sn_json_knum(j, "cpu_freq_hz", s->cpu_freq_hz);
    sn_json_key(j, "governor");
    if (s->governor[0])
        sn_json_str(j, s->governor);
    else
        sn_json_null(j);
    sn_json_knum(j, "cpu_temp_c", s->cpu_temp_c);
    sn_json_knum(j, "sm_clock_hz", s->sm_clock_hz);
    sn_json_knum(j, "mem_clock_hz", s->mem_clock_hz);
    sn_json_knum(j, "temp_c", s->temp_c);
    sn_json_knum(j, "power_w", s->power_w);
    /* unread is not "no reason": 0 only when NVML said so */
    sn_json_key(j, "throttle_reasons");
    if (s->throttle_read)
        sn_json_int(j, (long long)s->throttle);
    else
        sn_json_null(j);
    sn_json_obj_end(j);
}

static void kstr_or_null(struct sn_json *j, const char *key, const char *s)
{
    sn_json_key(j, key);
    if (s && *s)
        sn_json_str(j, s);
    else
        sn_json_null(j);
}

static void json_result(struct sn_json *j, const struct sn_bench_result *r)
{
    sn_json_obj_begin(j);
    sn_json_kstr(j, "test", sn_bench_test_name(r->test));
    sn_json_kstr(j, "op", r->op);
    sn_json_key(j, "subject");
    sn_json_obj_begin(j);
    switch (r->subject) {
    case SN_SUBJECT_DEVICE:
        sn_json_kint(j, "rank", r->rank);
        break;
    case SN_SUBJECT_PAIR:
        sn_json_kint(j, "src", r->rank);
        sn_json_kint(j, "dst", r->peer);
        break;
    case SN_SUBJECT_GROUP:
        sn_json_kint(j, "ranks", r->nranks);
        break;
    }
    sn_json_obj_end(j);
    sn_json_kstr(j, "host", r->host);
    if (r->subject == SN_SUBJECT_PAIR)
        sn_json_kstr(j, "peer_host", r->peer_host);
    sn_json_kstr(j, "device", r->device);
    if (r->round >= 0)
        sn_json_kint(j, "round", r->round);
    sn_json_key(j, "params");
    sn_json_obj_begin(j);
    if (r->bytes)
        sn_json_kint(j, "bytes", (long long)r->bytes);
    if (r->count)
        sn_json_kint(j, "count", (long long)r->count);
    if (r->dtype[0])
        sn_json_kstr(j, "dtype", r->dtype);
    if (r->redop[0])
        sn_json_kstr(j, "redop", r->redop);
    if (r->root >= 0)
        sn_json_kint(j, "root", r->root);
    if (r->inplace >= 0)
        sn_json_kbool(j, "inplace", r->inplace);
    if (r->gemm_m >= 0) {
        sn_json_kint(j, "m", r->gemm_m);
        sn_json_kint(j, "n", r->gemm_n);
        sn_json_kint(j, "k", r->gemm_k);
    }
    if (r->threads >= 0)
        sn_json_kint(j, "threads", r->threads);
    if (r->numa >= 0)
        sn_json_kint(j, "numa", r->numa);
    if (r->pinned >= 0)
        sn_json_kbool(j, "pinned", r->pinned);
    if (r->concurrent >= 0)
        sn_json_kbool(j, "concurrent", r->concurrent);
    sn_json_obj_end(j);
    sn_json_kstr(j, "metric", r->metric);
    sn_json_kstr(j, "unit", r->unit);
    sn_json_knum(j, "work", r->work);
    sn_json_knum(j, "value", r->stats.median);
    sn_json_key(j, "stats");
    json_stats(j, &r->stats);
    sn_json_knum(j, "time_s", r->time);
    if (r->test == SN_BENCH_COLL) {
        /* one name and unit per quantity in every output: nccl-tests'
         * names in its GB/s, as the tables here and sim coll write them */
        sn_json_knum(j, "algbw_GBps", r->algbw / 1e9);
        sn_json_knum(j, "busbw_GBps", r->busbw / 1e9);
    }
    if (r->ref > 0) {
        sn_json_knum(j, "ref", r->ref);
        sn_json_knum(j, "ratio", r->stats.median / r->ref);
    }
    sn_json_key(j, "wrong");
    if (r->wrong >= 0)
        sn_json_int(j, r->wrong);
    else
        sn_json_null(j);
    sn_json_key(j, "expected");
    if (r->expected > 0) {
        sn_json_obj_begin(j);
        sn_json_knum(j, "value", r->expected);
        sn_json_kstr(j, "source", r->expected_src);
        sn_json_knum(j, "efficiency", efficiency(r));
        sn_json_obj_end(j);
    } else {
        sn_json_null(j);
    }
    sn_json_kbool(j, "complete", r->complete);
    sn_json_key(j, "ci_met");
    if (r->ci_met >= 0)
        sn_json_bool(j, r->ci_met);
    else
        sn_json_null(j);
    sn_json_key(j, "state");
    sn_json_obj_begin(j);
    sn_json_key(j, "before");
    json_state(j, &r->before);
    sn_json_key(j, "after");
    json_state(j, &r->after);
    sn_json_obj_end(j);
    sn_json_key(j, "samples_s");
    /* samples on one line each array: thousands of them stay readable */
    {
        bool pretty = j->pretty;
        j->pretty = false;
        sn_json_arr_begin(j);
        for (size_t i = 0; i < r->nsamples; i++)
            sn_json_num(j, r->samples[i]);
        sn_json_arr_end(j);
        j->pretty = pretty;
    }
    sn_json_obj_end(j);
}

static const char *thread_level_name(int level)
{
    switch (level) {
    case MPI_THREAD_SINGLE:
        return "single";
    case MPI_THREAD_FUNNELED:
        return "funneled";
    case MPI_THREAD_SERIALIZED:
        return "serialized";
    case MPI_THREAD_MULTIPLE:
        return "multiple";
    default:
        return "unknown";
    }
}

void sn_render_bench_json(const struct sn_bench_results *res,
                          struct sn_buf *out)
{
    struct sn_json j;
    const struct sn_bench_versions *v = &res->versions;
    char when[32] = "";
    time_t t = (time_t)res->started;
    struct tm tm;

    if (res->started > 0 && gmtime_r(&t, &tm))
        strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
    sn_json_init(&j, out, true);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", SN_SCHEMA_BENCH);
    sn_json_kbool(&j, "complete", res->complete);
    sn_json_key(&j, "abort");
    if (!res->complete) {
        sn_json_obj_begin(&j);
        sn_json_kstr(&j, "test", res->abort_test);
        sn_json_kstr(&j, "message", res->abort_msg);
        sn_json_obj_end(&j);
    } else {
        sn_json_null(&j);
    }
    sn_json_kstr(&j, "backend", res->backend);
    kstr_or_null(&j, "started", when);
    sn_json_knum(&j, "elapsed_s", res->elapsed);
    sn_json_key(&j, "versions");
    sn_json_obj_begin(&j);
    kstr_or_null(&j, "tool", v->tool);
    kstr_or_null(&j, "mpi", v->mpi);
    kstr_or_null(&j, "blas", v->blas);
    kstr_or_null(&j, "cuda_runtime", v->cuda_runtime);
    kstr_or_null(&j, "cuda_driver", v->cuda_driver);
    kstr_or_null(&j, "driver", v->driver);
    kstr_or_null(&j, "nccl", v->nccl);
    kstr_or_null(&j, "kernel", v->kernel);
    sn_json_obj_end(&j);
    sn_json_key(&j, "sampling");
    sn_json_obj_begin(&j);
    sn_json_kint(&j, "warmup", res->sampling.warmup);
    sn_json_kint(&j, "iters", res->sampling.iters);
    sn_json_kint(&j, "latency_iters", res->sampling.latency_iters);
    sn_json_key(&j, "until_ci");
    if (res->sampling.until_ci > 0)
        sn_json_num(&j, res->sampling.until_ci);
    else
        sn_json_null(&j);
    sn_json_kint(&j, "max_iters", res->sampling.max_iters);
    sn_json_knum(&j, "timeout_s", res->sampling.timeout);
    sn_json_kbool(&j, "check", res->sampling.check);
    sn_json_kbool(&j, "isolated", res->sampling.isolated);
    sn_json_obj_end(&j);
    sn_json_kstr(&j, "mpi_thread_level",
                 thread_level_name(res->mpi_thread_level));
    sn_json_key(&j, "timer");
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "name", res->timer.name);
    sn_json_knum(&j, "resolution_s", res->timer.resolution);
    sn_json_knum(&j, "granularity_s", res->timer.granularity);
    sn_json_knum(&j, "overhead_s", res->timer.overhead);
    sn_json_obj_end(&j);
    sn_json_key(&j, "ranks");
    sn_json_arr_begin(&j);
    for (int i = 0; i < res->nranks; i++) {
        sn_json_obj_begin(&j);
        sn_json_kint(&j, "rank", res->ranks[i].rank);
        sn_json_kint(&j, "local_rank", res->ranks[i].local_rank);
        sn_json_kstr(&j, "host", res->ranks[i].host);
        sn_json_kstr(&j, "device", res->ranks[i].device);
        /* --lock-clocks: what the rank's GPU was held at, null when not */
        sn_json_key(&j, "locked_clocks");
        if (res->ranks[i].locked_sm_mhz) {
            sn_json_obj_begin(&j);
            sn_json_kint(&j, "sm_mhz", res->ranks[i].locked_sm_mhz);
            sn_json_kint(&j, "mem_mhz", res->ranks[i].locked_mem_mhz);
            sn_json_obj_end(&j);
        } else {
            sn_json_null(&j);
        }
        sn_json_obj_end(&j);
    }
    sn_json_arr_end(&j);
    sn_json_key(&j, "notes");
    sn_json_arr_begin(&j);
    for (size_t i = 0; i < res->nnotes; i++)
        sn_json_str(&j, res->notes[i]);
    sn_json_arr_end(&j);
    sn_json_key(&j, "results");
    sn_json_arr_begin(&j);
    for (size_t i = 0; i < res->n; i++)
        json_result(&j, &res->items[i]);
    sn_json_arr_end(&j);
    sn_json_obj_end(&j);
}

/* ---- text tables
 * ------------------------------------------------------------------ */

static bool any_of(const struct sn_bench_results *res, enum sn_bench_test t)
{
    for (size_t i = 0; i < res->n; i++)
        if (res->items[i].test == t)
            return true;
    return false;
}

static bool any_expected(const struct sn_bench_results *res,
                         enum sn_bench_test t)
{
    for (size_t i = 0; i < res->n; i++)
        if (res->items[i].test == t && res->items[i].expected > 0)
            return true;
    return false;
}

static void cell_num(struct sn_table *t, double v, int decimals)
{
    if (isfinite(v))
        sn_table_cell(t, "%.*f", decimals, v);
    else
        sn_table_cell(t, "-");
}

/* The 95% interval of the median, scaled: "lo-hi", or "-" without one. */
static void cell_ci(struct sn_table *t, const struct sn_stats *s, double scale)
{
    if (isfinite(s->ci_lo))
        sn_table_cell(t, "%.2f-%.2f", s->ci_lo / scale, s->ci_hi / scale);
    else
        sn_table_cell(t, "-");
}

static void expected_cells(struct sn_table *t, const struct sn_bench_result *r,
                           double scale, int decimals)
{
    if (r->expected > 0) {
        cell_num(t, r->expected / scale, decimals);
        cell_num(t, 100.0 * efficiency(r), 1);
    } else {
        sn_table_cell(t, "-");
        sn_table_cell(t, "-");
    }
}

static void render_compute(const struct sn_bench_results *res,
                           struct sn_buf *out)
{
    struct sn_table t;
    bool exp = any_expected(res, SN_BENCH_COMPUTE);
    bool cpu = strcmp(res->backend, "cpu") == 0;
    double scale = cpu ? 1e9 : 1e12;

    sn_buf_puts(out, "# compute: GEMM C = A B, m = n = k, 2mnk FLOPs per "
                     "call\n");
    sn_table_init(&t, "# ");
    sn_table_col(&t, "rank", true);
    sn_table_col(&t, "host", false);
    sn_table_col(&t, "dtype", false);
    sn_table_col(&t, "size", true);
    sn_table_col(&t, "time(us)", true);
    sn_table_col(&t, cpu ? "GFLOP/s" : "TFLOP/s", true);
    sn_table_col(&t, "ci95", true);
    sn_table_col(&t, "cv%", true);
    if (exp) {
        sn_table_col(&t, "expected", true);
        sn_table_col(&t, "eff%", true);
    }
    for (size_t i = 0; i < res->n; i++) {
        const struct sn_bench_result *r = &res->items[i];
        if (r->test != SN_BENCH_COMPUTE)
            continue;
        sn_table_row(&t);
        sn_table_cell(&t, "%d", r->rank);
        sn_table_cell(&t, "%s", r->host);
        sn_table_cell(&t, "%s", r->dtype);
        sn_table_cell(&t, "%lld", (long long)r->gemm_m);
        cell_num(&t, r->time * 1e6, 1);
        cell_num(&t, r->stats.median / scale, 2);
        cell_ci(&t, &r->stats, scale);
        cell_num(&t, 100 * r->stats.cv, 2);
        if (exp)
            expected_cells(&t, r, scale, 1);
    }
    sn_table_render(&t, out);
    sn_table_release(&t);
}

static void render_memory(const struct sn_bench_results *res,
                          struct sn_buf *out)
{
    struct sn_table t;
    bool exp = any_expected(res, SN_BENCH_MEMORY);

    sn_buf_puts(out, "# memory: STREAM kernels, bytes counted as STREAM "
                     "does; Best Rate from the fastest sample\n");
    sn_table_init(&t, "# ");
    sn_table_col(&t, "rank", true);
    sn_table_col(&t, "host", false);
    sn_table_col(&t, "Function", false);
    sn_table_col(&t, "array(B)", true);
    sn_table_col(&t, "Best Rate MB/s", true);
    sn_table_col(&t, "Avg time", true);
    sn_table_col(&t, "Min time", true);
    sn_table_col(&t, "Max time", true);
    sn_table_col(&t, "median GB/s", true);
    sn_table_col(&t, "cv%", true);
    if (exp) {
        sn_table_col(&t, "expected", true);
        sn_table_col(&t, "eff%", true);
    }
    for (size_t i = 0; i < res->n; i++) {
        const struct sn_bench_result *r = &res->items[i];
        double tmin = INFINITY, tmax = 0, tsum = 0;
        if (r->test != SN_BENCH_MEMORY)
            continue;
        for (size_t k = 0; k < r->nsamples; k++) {
            tmin = fmin(tmin, r->samples[k]);
            tmax = fmax(tmax, r->samples[k]);
            tsum += r->samples[k];
        }
        sn_table_row(&t);
        sn_table_cell(&t, "%d", r->rank);
        sn_table_cell(&t, "%s", r->host);
        sn_table_cell(&t, "%c%s:", toupper((unsigned char)r->op[0]),
                      r->op[0] ? r->op + 1 : "");
        sn_table_cell(&t, "%llu", (unsigned long long)r->bytes);
        cell_num(&t, r->stats.max / 1e6, 1);
        cell_num(&t, r->nsamples ? tsum / (double)r->nsamples : NAN, 6);
        cell_num(&t, r->nsamples ? tmin : NAN, 6);
        cell_num(&t, r->nsamples ? tmax : NAN, 6);
        cell_num(&t, r->stats.median / 1e9, 2);
        cell_num(&t, 100 * r->stats.cv, 2);
        if (exp)
            expected_cells(&t, r, 1e9, 1);
    }
    sn_table_render(&t, out);
    sn_table_release(&t);
}

static void render_host(const struct sn_bench_results *res,
                        enum sn_bench_test which, struct sn_buf *out)
{
    struct sn_table t;

    sn_buf_printf(out, "# %s: %s, one transfer per sample\n",
                  sn_bench_test_name(which),
                  which == SN_BENCH_H2D ? "host to device" : "device to host");
    sn_table_init(&t, "# ");
    sn_table_col(&t, "rank", true);
    sn_table_col(&t, "host", false);
    sn_table_col(&t, "numa", true);
    sn_table_col(&t, "memory", false);
    sn_table_col(&t, "size(B)", true);
    sn_table_col(&t, "GB/s", true);
    sn_table_col(&t, "ci95", true);
    sn_table_col(&t, "cv%", true);
    for (size_t i = 0; i < res->n; i++) {
        const struct sn_bench_result *r = &res->items[i];
        if (r->test != which)
            continue;
        sn_table_row(&t);
        sn_table_cell(&t, "%d", r->rank);
        sn_table_cell(&t, "%s", r->host);
        sn_table_cell(&t, "%d", r->numa);
        sn_table_cell(&t, "%s", r->pinned ? "pinned" : "pageable");
        sn_table_cell(&t, "%llu", (unsigned long long)r->bytes);
        cell_num(&t, r->stats.median / 1e9, 2);
        cell_ci(&t, &r->stats, 1e9);
        cell_num(&t, 100 * r->stats.cv, 2);
    }
    sn_table_render(&t, out);
    sn_table_release(&t);
}

/* An nvbandwidth-style matrix: row = source, column = destination. */
static void render_matrix(const struct sn_bench_results *res,
                          enum sn_bench_test test, const char *op,
                          const char *title, double scale, int decimals,
                          bool eff, struct sn_buf *out)
{
    int n = res->nranks;
    struct sn_table t;
    char hdr[SN_TABLE_MAX_COLS][12];
    bool any = false;
    uint64_t bytes = 0;
    int concurrent = -1;

    for (size_t i = 0; i < res->n; i++) {
        const struct sn_bench_result *r = &res->items[i];
        if (r->test == test && !strcmp(r->op, op) &&
            (!eff || r->expected > 0)) {
            any = true;
            bytes = r->bytes;
            concurrent = r->concurrent;
        }
    }
    if (!any || n < 1)
        return;
    sn_buf_printf(out,
                  "# %s, %llu B, row = source, column = destination, "
                  "%s\n",
                  title, (unsigned long long)bytes,
                  concurrent == 1 ? "pairs in tournament rounds"
                                  : "one pair at a time");
    if (n > SN_TABLE_MAX_COLS - 1) {
        sn_buf_printf(out,
                      "#   (%d ranks: see the JSON output for the "
                      "matrix)\n",
                      n);
        return;
    }
    sn_table_init(&t, "# ");
    sn_table_col(&t, "src\\dst", true);
    for (int d = 0; d < n; d++) {
        snprintf(hdr[d], sizeof(hdr[d]), "%d", d);
        sn_table_col(&t, hdr[d], true);
    }
    for (int s = 0; s < n; s++) {
        sn_table_row(&t);
        sn_table_cell(&t, "%d", s);
        for (int d = 0; d < n; d++) {
            const struct sn_bench_result *hit = NULL;
            for (size_t i = 0; i < res->n; i++) {
                const struct sn_bench_result *r = &res->items[i];
                if (r->test == test && !strcmp(r->op, op) && r->rank == s &&
                    r->peer == d)
                    hit = r;
            }
            if (hit && eff)
                cell_num(&t, 100 * efficiency(hit), 1);
            else if (hit)
                cell_num(&t, hit->stats.median / scale, decimals);
            else
                sn_table_cell(&t, "N/A");
        }
    }
    sn_table_render(&t, out);
    sn_table_release(&t);
}

static void render_aggregate(const struct sn_bench_results *res,
                             struct sn_buf *out)
{
    struct sn_table t;
    bool exp = any_expected(res, SN_BENCH_AGGREGATE);

    sn_buf_puts(out, "# aggregate: every pair of a round exchanging both "
                     "ways at once, against the same pairs one at a "
                     "time\n");
    sn_table_init(&t, "# ");
    sn_table_col(&t, "round", true);
    sn_table_col(&t, "ranks", true);
    sn_table_col(&t, "size(B)", true);
    sn_table_col(&t, "aggregate(GB/s)", true);
    sn_table_col(&t, "sum alone(GB/s)", true);
    sn_table_col(&t, "ratio%", true);
    sn_table_col(&t, "cv%", true);
    if (exp) {
        sn_table_col(&t, "expected", true);
        sn_table_col(&t, "eff%", true);
    }
    for (size_t i = 0; i < res->n; i++) {
        const struct sn_bench_result *r = &res->items[i];
        if (r->test != SN_BENCH_AGGREGATE || strcmp(r->op, "aggregate"))
            continue;
        sn_table_row(&t);
        sn_table_cell(&t, "%d", r->round + 1);
        sn_table_cell(&t, "%d", r->nranks);
        sn_table_cell(&t, "%llu", (unsigned long long)r->bytes);
        cell_num(&t, r->stats.median / 1e9, 2);
        cell_num(&t, r->ref / 1e9, 2);
        cell_num(&t, r->ref > 0 ? 100 * r->stats.median / r->ref : NAN, 1);
        cell_num(&t, 100 * r->stats.cv, 2);
        if (exp)
            expected_cells(&t, r, 1e9, 2);
    }
    sn_table_render(&t, out);
    sn_table_release(&t);
}

static bool coll_same_row(const struct sn_bench_result *a,
                          const struct sn_bench_result *b)
{
    return a->test == SN_BENCH_COLL && b->test == SN_BENCH_COLL &&
           !strcmp(a->op, b->op) && a->bytes == b->bytes;
}

static void coll_cells(struct sn_table *t, const struct sn_bench_result *r,
                       bool exp)
{
    if (!r) {
        for (int k = 0; k < (exp ? 5 : 4); k++)
            sn_table_cell(t, "N/A");
        return;
    }
    cell_num(t, r->time * 1e6, 2);
    cell_num(t, r->algbw / 1e9, 2);
    cell_num(t, r->busbw / 1e9, 2);
    if (r->wrong >= 0)
        sn_table_cell(t, "%lld", r->wrong);
    else
        sn_table_cell(t, "N/A");
    /* the design's time, as a percentage: sim time / measured time */
    if (exp)
        cell_num(t, 100 * efficiency(r), 1);
}

/* nccl-tests' table, one per collective, with its two footer lines. */
static void render_coll(const struct sn_bench_results *res, struct sn_buf *out)
{
    const char *done[SN_COLL_OP_COUNT];
    size_t ndone = 0;
    bool exp = any_expected(res, SN_BENCH_COLL);

    for (size_t i = 0; i < res->n; i++) {
        const struct sn_bench_result *first = &res->items[i];
        struct sn_table t;
        double bw_sum = 0;
        int bw_n = 0;
        long long wrong = 0;
        bool seen = false;

        if (first->test != SN_BENCH_COLL)
            continue;
        for (size_t k = 0; k < ndone; k++)
            if (!strcmp(done[k], first->op))
                seen = true;
        if (seen || ndone >= SN_COLL_OP_COUNT)
            continue;
        done[ndone++] = first->op;
        sn_buf_printf(out,
                      "# coll %s: %d ranks, time = median over "
                      "iterations of the slowest rank\n",
                      first->op, first->nranks);
        sn_buf_puts(out, "#                                         "
                         "out-of-place                  in-place\n");
        sn_table_init(&t, "# ");
        sn_table_col(&t, "size", true);
        sn_table_col(&t, "count", true);
        sn_table_col(&t, "type", false);
        sn_table_col(&t, "redop", false);
        sn_table_col(&t, "root", true);
        sn_table_col(&t, "time(us)", true);
        sn_table_col(&t, "algbw(GB/s)", true);
        sn_table_col(&t, "busbw(GB/s)", true);
        sn_table_col(&t, "#wrong", true);
        if (exp)
            sn_table_col(&t, "eff%", true);
        sn_table_col(&t, "time(us)", true);
        sn_table_col(&t, "algbw(GB/s)", true);
        sn_table_col(&t, "busbw(GB/s)", true);
        sn_table_col(&t, "#wrong", true);
        if (exp)
            sn_table_col(&t, "eff%", true);
        for (size_t a = i; a < res->n; a++) {
            const struct sn_bench_result *r = &res->items[a], *oop = NULL,
                                         *ip = NULL;
            enum sn_bench_dtype dt = SN_DT_FP32;
            bool earlier = false;
            if (r->test != SN_BENCH_COLL || strcmp(r->op, first->op))
                continue;
            for (size_t b = i; b < a; b++)
                if (coll_same_row(&res->items[b], r))
                    earlier = true;
            if (earlier)
                continue;
            for (size_t b = a; b < res->n; b++) {
                const struct sn_bench_result *s = &res->items[b];
                if (!coll_same_row(s, r))
                    continue;
                if (s->inplace == 1)
                    ip = s;
                else
                    oop = s;
                bw_sum += s->busbw;
                bw_n++;
                if (s->wrong > 0)
                    wrong += s->wrong;
            }
            sn_bench_dtype_parse(r->dtype, &dt, NULL);
            sn_table_row(&t);
            sn_table_cell(&t, "%llu", (unsigned long long)r->bytes);
            sn_table_cell(&t, "%llu", (unsigned long long)r->count);
            sn_table_cell(&t, "%s", sn_bench_dtype_nccl_name(dt));
            sn_table_cell(&t, "%s", r->redop[0] ? r->redop : "none");
            sn_table_cell(&t, "%d", r->root);
            coll_cells(&t, oop, exp);
            coll_cells(&t, ip, exp);
        }
        sn_table_render(&t, out);
        sn_table_release(&t);
        sn_buf_printf(out, "# Out of bounds values : %lld %s\n", wrong,
                      wrong ? "FAILED" : "OK");
        sn_buf_printf(out, "# Avg bus bandwidth    : %.4f\n",
                      bw_n ? bw_sum / bw_n / 1e9 : 0.0);
    }
}

static void histogram(const struct sn_bench_result *r, struct sn_buf *out)
{
    uint64_t counts[64], peak = 0;
    double edge;
    size_t used = sn_bench_histogram(r->samples, r->nsamples, 1e-9, counts,
                                     SN_ARRAY_LEN(counts), &edge);

    for (size_t b = 0; b < used; b++)
        if (counts[b] > peak)
            peak = counts[b];
    for (size_t b = 0; b < used; b++) {
        double lo = edge * pow(2.0, b / 4.0);
        int bar = peak ? (int)(40.0 * (double)counts[b] / (double)peak) : 0;
        if (!counts[b])
            continue;
        sn_buf_printf(out, "#   %10.2f us %8llu ", lo * 1e6,
                      (unsigned long long)counts[b]);
        for (int k = 0; k < bar; k++)
            sn_buf_putc(out, '*');
        sn_buf_putc(out, '\n');
    }
}

static void render_latency(const struct sn_bench_results *res,
                           struct sn_buf *out)
{
    bool exp = any_expected(res, SN_BENCH_LATENCY);
    struct sn_table t;
    const struct sn_bench_result *worst = NULL;

    sn_buf_puts(out, "# latency: small messages; pairs: ping-pong, half "
                     "the round trip; allreduce: slowest rank per "
                     "iteration\n");
    sn_table_init(&t, "# ");
    sn_table_col(&t, "op", false);
    sn_table_col(&t, "src", true);
    sn_table_col(&t, "dst", true);
    sn_table_col(&t, "Size", true);
    sn_table_col(&t, "Avg Latency(us)", true);
    sn_table_col(&t, "P50", true);
    sn_table_col(&t, "P90", true);
    sn_table_col(&t, "P99", true);
    sn_table_col(&t, "P99.9", true);
    sn_table_col(&t, "Max", true);
    sn_table_col(&t, "Iterations", true);
    if (exp) {
        sn_table_col(&t, "expected", true);
        sn_table_col(&t, "eff%", true);
    }
    /* pairs first, then the job-wide rows */
    for (size_t k = 0; k < 2 * res->n; k++) {
        const struct sn_bench_result *r = &res->items[k % res->n];
        bool pair = r->subject == SN_SUBJECT_PAIR;
        if (r->test != SN_BENCH_LATENCY || pair != (k < res->n))
            continue;
        if (r->subject == SN_SUBJECT_PAIR &&
            (!worst || r->stats.p99 > worst->stats.p99))
            worst = r;
        sn_table_row(&t);
        sn_table_cell(&t, "%s", r->op);
        if (r->subject == SN_SUBJECT_PAIR) {
            sn_table_cell(&t, "%d", r->rank);
            sn_table_cell(&t, "%d", r->peer);
        } else {
            sn_table_cell(&t, "all");
            sn_table_cell(&t, "all");
        }
        sn_table_cell(&t, "%llu", (unsigned long long)r->bytes);
        cell_num(&t, r->stats.mean * 1e6, 2);
        cell_num(&t, r->stats.median * 1e6, 2);
        cell_num(&t, r->stats.p90 * 1e6, 2);
        cell_num(&t, r->stats.p99 * 1e6, 2);
        cell_num(&t, r->stats.p999 * 1e6, 2);
        cell_num(&t, r->stats.max * 1e6, 2);
        sn_table_cell(&t, "%zu", r->stats.n);
        if (exp)
            expected_cells(&t, r, 1e-6, 2);
    }
    sn_table_render(&t, out);
    sn_table_release(&t);
    for (size_t i = 0; i < res->n; i++) {
        const struct sn_bench_result *r = &res->items[i];
        if (r->test != SN_BENCH_LATENCY || r->subject != SN_SUBJECT_GROUP)
            continue;
        sn_buf_printf(out, "# histogram: %s, %llu B, all ranks\n", r->op,
                      (unsigned long long)r->bytes);
        histogram(r, out);
    }
    if (worst) {
        sn_buf_printf(out, "# histogram: pair %d->%d (highest P99)\n",
                      worst->rank, worst->peer);
        histogram(worst, out);
    }
}

void sn_render_bench_text(const struct sn_bench_results *res,
                          struct sn_buf *out)
{
    sn_buf_printf(out, "# supernode bench %s: backend %s, %d rank%s\n",
                  res->versions.tool, res->backend, res->nranks,
                  res->nranks == 1 ? "" : "s");
    for (int i = 0; i < res->nranks && i < 64; i++) {
        const struct sn_bench_rank *k = &res->ranks[i];
        sn_buf_printf(out, "#   rank %d on %s: %s", k->rank, k->host,
                      k->device);
        if (k->locked_sm_mhz)
            sn_buf_printf(out, ", clocks locked at SM %u MHz, memory %u MHz",
                          k->locked_sm_mhz, k->locked_mem_mhz);
        sn_buf_putc(out, '\n');
    }
    if (any_of(res, SN_BENCH_COMPUTE))
        render_compute(res, out);
    if (any_of(res, SN_BENCH_MEMORY))
        render_memory(res, out);
    if (any_of(res, SN_BENCH_H2D))
        render_host(res, SN_BENCH_H2D, out);
    if (any_of(res, SN_BENCH_D2H))
        render_host(res, SN_BENCH_D2H, out);
    if (any_of(res, SN_BENCH_PAIRS)) {
        sn_buf_puts(out, "# pairs\n");
        render_matrix(res, SN_BENCH_PAIRS, "uni",
                      "unidirectional bandwidth (GB/s)", 1e9, 2, false, out);
        render_matrix(res, SN_BENCH_PAIRS, "bidir",
                      "bidirectional bandwidth (GB/s per direction)", 1e9, 2,
                      false, out);
        render_matrix(res, SN_BENCH_PAIRS, "latency",
                      "latency (us, half round trip, median)", 1e-6, 2, false,
                      out);
        /* latencies have no design value (expect.h) */
        render_matrix(res, SN_BENCH_PAIRS, "uni",
                      "unidirectional bandwidth, % of the design", 1, 1, true,
                      out);
        render_matrix(res, SN_BENCH_PAIRS, "bidir",
                      "bidirectional bandwidth, % of the design", 1, 1, true,
                      out);
    }
    if (any_of(res, SN_BENCH_AGGREGATE))
        render_aggregate(res, out);
    if (any_of(res, SN_BENCH_COLL))
        render_coll(res, out);
    if (any_of(res, SN_BENCH_LATENCY))
        render_latency(res, out);
    for (size_t i = 0; i < res->nnotes; i++)
        sn_buf_printf(out, "# note: %s\n", res->notes[i]);
    if (!res->complete)
        sn_buf_printf(out, "# INCOMPLETE: %s\n", res->abort_msg);
}

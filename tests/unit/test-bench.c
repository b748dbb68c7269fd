/* test-bench.c: the bench module's pure parts: statistics against values
 * computed by hand and by numpy, the confidence interval of the median
 * against the published order-statistic table, histograms, the tournament
 * schedule, nccl-tests' bus factors, names, the byte form of results, the
 * JSON document and the host state read under a fixture root. */
/* covers: bench net workload study render spec store topo */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/lib/bench/bench-int.h"
#include "harness.h"
#include "sn/bench.h"
#include "sn/render.h"

static void test_stats_one_to_ten_match_numpy(void)
{
    /* numpy 1.26: np.percentile(np.arange(1, 11), [5, 50, 90, 95, 99])
     * = [1.45, 5.5, 9.1, 9.55, 9.91]; np.std(x, ddof=1) = 3.0276503541 */
    double x[10] = {7, 1, 10, 3, 5, 2, 9, 4, 8, 6};
    struct sn_stats s;

    sn_stats_compute(x, 10, &s);
    CHECK(s.n == 10);
    CHECK_NEAR(s.median, 5.5, 1e-12);
    CHECK_NEAR(s.mean, 5.5, 1e-12);
    CHECK_NEAR(s.min, 1, 1e-12);
    CHECK_NEAR(s.max, 10, 1e-12);
    CHECK_NEAR(s.p5, 1.45, 1e-12);
    CHECK_NEAR(s.p90, 9.1, 1e-12);
    CHECK_NEAR(s.p95, 9.55, 1e-12);
    CHECK_NEAR(s.p99, 9.91, 1e-12);
    CHECK_NEAR(s.stddev, 3.0276503540974917, 1e-12);
    CHECK_NEAR(s.cv, 3.0276503540974917 / 5.5, 1e-12);
    /* the input is left as it was */
    CHECK(x[0] == 7 && x[9] == 6);
}

static void test_stats_ci_of_median_for_ten_samples(void)
{
    /* n = 10: [x(2), x(9)] covers the median with 1 - 2 * 11/1024 =
     * 97.85%; [x(3), x(8)] only 89.1% (Hollander & Wolfe table A.3) */
    double x[10] = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100};
    struct sn_stats s;

    sn_stats_compute(x, 10, &s);
    CHECK_NEAR(s.ci_lo, 20, 1e-12);
    CHECK_NEAR(s.ci_hi, 90, 1e-12);
    CHECK_NEAR(sn_stats_ci_rel(&s), 35.0 / 55.0, 1e-12);
}

static void test_stats_ci_indices_match_table(void)
{
    size_t lo, hi;

    /* n = 100: x(40), x(61) (the normal approximation n/2 -+ 0.98 sqrt(n)
     * rounds to the same pair); 0-based 39 and 60 */
    REQUIRE(sn_stats_median_ci(100, 0.95, &lo, &hi));
    CHECK(lo == 39 && hi == 60);
    /* n = 6 is the smallest with a 95% interval: [x(1), x(6)], 96.9% */
    REQUIRE(sn_stats_median_ci(6, 0.95, &lo, &hi));
    CHECK(lo == 0 && hi == 5);
    /* n = 5: even [x(1), x(5)] covers only 93.75% */
    CHECK(!sn_stats_median_ci(5, 0.95, &lo, &hi));
    /* n = 20: x(6), x(15) (coverage 95.86%) */
    REQUIRE(sn_stats_median_ci(20, 0.95, &lo, &hi));
    CHECK(lo == 5 && hi == 14);
    /* large n stays finite: n = 1e5 gives n/2 - 0.98 sqrt(n) ~ 49690 */
    REQUIRE(sn_stats_median_ci(100000, 0.95, &lo, &hi));
    CHECK(lo >= 49685 && lo <= 49695 && hi == 100000 - lo - 1);
}

static void test_stats_small_and_empty_inputs(void)
{
    struct sn_stats s;
    double one = 4.0;

    sn_stats_compute(NULL, 0, &s);
    CHECK(s.n == 0 && s.median == 0 && isnan(s.ci_lo));
    sn_stats_compute(&one, 1, &s);
    CHECK(s.n == 1 && s.median == 4 && s.p999 == 4 && s.stddev == 0);
    CHECK(isnan(s.ci_lo));
    CHECK(isinf(sn_stats_ci_rel(&s)));
}

static void test_stats_tail_percentiles_see_outliers(void)
{
    /* 999 samples of 1 us and one of 1 ms: p99 stays at 1 us, p99.9
     * interpolates 0.001 of the way ... numpy: 1.999e-6 */
    double *x = sn_xmalloc(1000 * sizeof(*x));
    struct sn_stats s;

    for (int i = 0; i < 1000; i++)
        x[i] = 1e-6;
    x[500] = 1e-3;
    sn_stats_compute(x, 1000, &s);
    CHECK_NEAR(s.median, 1e-6, 1e-12);
    CHECK_NEAR(s.p99, 1e-6, 1e-12);
    CHECK_NEAR(s.p999, 1e-6 + 0.001 * (1e-3 - 1e-6), 1e-9);
    CHECK_NEAR(s.max, 1e-3, 1e-12);
    free(x);
}

static void test_histogram_bins_four_per_octave(void)
{
    /* 1, 2, 4 ns are whole octaves: bins 0, 4 and 8 from the first */
    double x[5] = {1e-9, 2e-9, 2e-9, 4e-9, 0};
    uint64_t c[16];
    double edge;
    size_t used = sn_bench_histogram(x, 5, 1e-9, c, 16, &edge);

    REQUIRE(used == 9);
    CHECK_NEAR(edge, 1e-9, 1e-12);
    CHECK(c[0] == 1 && c[4] == 2 && c[8] == 1);
    CHECK(c[1] == 0 && c[7] == 0);
    /* too few bins: the last takes the tail */
    used = sn_bench_histogram(x, 5, 1e-9, c, 4, &edge);
    CHECK(used == 4 && c[0] == 1 && c[3] == 3);
}

static void test_tournament_meets_every_pair_once(void)
{
    for (int n = 2; n <= 17; n++) {
        int rounds = sn_bench_rounds(n);
        int *met = sn_xcalloc((size_t)(n * n), sizeof(*met));
        int partner[17];
        CHECK(rounds == (n % 2 ? n : n - 1));
        for (int r = 0; r < rounds; r++) {
            int byes = 0;
            sn_bench_tournament(n, r, partner);
            for (int a = 0; a < n; a++) {
                int b = partner[a];
                if (b < 0) {
                    byes++;
                    continue;
                }
                CHECK(b != a && b < n && partner[b] == a);
                met[a * n + b]++;
            }
            CHECK(byes == n % 2);
        }
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++)
                CHECK(met[a * n + b] == (a != b));
        free(met);
    }
}

static void test_tournament_of_one_has_no_rounds(void)
{
    int p[1] = {7};

    CHECK(sn_bench_rounds(1) == 0);
    sn_bench_tournament(1, 0, p);
    CHECK(p[0] == -1);
}

/* The bus factors bench reports with are coll.h's, and they are
 * nccl-tests' (src/<op>.cu *GetBw()) for every op and rank count. */
static void test_bus_factors_follow_nccl_tests(void)
{
    for (uint32_t n = 1; n <= 16; n++) {
        double per_rank = (double)(n - 1) / n;
        CHECK(sn_coll_bus_factor(SN_COLL_ALLREDUCE, n) == 2 * per_rank);
        CHECK(sn_coll_bus_factor(SN_COLL_ALLGATHER, n) == per_rank);
        CHECK(sn_coll_bus_factor(SN_COLL_REDUCESCATTER, n) == per_rank);
        CHECK(sn_coll_bus_factor(SN_COLL_ALLTOALL, n) == per_rank);
        CHECK(sn_coll_bus_factor(SN_COLL_BROADCAST, n) == 1);
        CHECK(sn_coll_bus_factor(SN_COLL_REDUCE, n) == 1);
        CHECK(sn_coll_bus_factor(SN_COLL_SENDRECV, n) == 1);
    }
    CHECK_NEAR(sn_coll_busbw(SN_COLL_ALLREDUCE, 8, 8e6, 1e-3), 1.4e10, 1e-12);
}

static void test_names_parse_ours_and_nccl_tests(void)
{
    enum sn_bench_dtype d;
    enum sn_coll_op op;
    enum sn_bench_test t;
    struct sn_error err;

    CHECK(sn_bench_dtype_parse("bfloat16", &d, &err) == SN_OK &&
          d == SN_DT_BF16);
    CHECK(sn_bench_dtype_parse("FP32", &d, &err) == SN_OK && d == SN_DT_FP32);
    CHECK(sn_coll_op_parse("all_reduce", &op, &err) == SN_OK &&
          op == SN_COLL_ALLREDUCE);
    CHECK(sn_coll_op_parse("reduce_scatter", &op, &err) == SN_OK &&
          op == SN_COLL_REDUCESCATTER);
    CHECK(sn_bench_test_parse("colll", &t, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "did you mean 'coll'");
    CHECK(sn_bench_dtype_parse("bf61", &d, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "unknown data type 'bf61'");
    CHECK_STR(sn_bench_dtype_nccl_name(SN_DT_FP16), "half");
    CHECK(sn_bench_dtype_size(SN_DT_FP8) == 1);
    /* sizes are the element types' (coll.h); their spellings parse too */
    CHECK(sn_bench_dtype_size(SN_DT_FP64) == 8 &&
          sn_bench_dtype_size(SN_DT_TF32) == 4 &&
          sn_bench_dtype_size(SN_DT_BF16) == 2);
    CHECK(sn_bench_dtype_parse("e4m3", &d, &err) == SN_OK && d == SN_DT_FP8);
    CHECK(sn_bench_dtype_parse("int", &d, &err) == SN_OK && d == SN_DT_INT32);
    CHECK(sn_bench_dtype_parse("int8", &d, &err) == SN_EINPUT);
    CHECK(sn_bench_backend_available(SN_BENCH_CPU));
}

static struct sn_bench_result sample_result(void)
{
    struct sn_bench_result r;
    double t[4] = {2e-3, 1e-3, 4e-3, 1e-3};

    sn__bench_result_init(&r);
    r.test = SN_BENCH_MEMORY;
    sn_strlcpy(r.op, "triad", sizeof(r.op));
    sn_strlcpy(r.host, "node-a", sizeof(r.host));
    r.rank = 3;
    r.bytes = 1000000;
    sn__bench_result_samples(&r, t, 4, 3e6, "bandwidth", "B/s");
    return r;
}

static void test_result_values_are_work_over_time(void)
{
    struct sn_bench_result r = sample_result();

    /* values 1.5e9, 3e9, 0.75e9, 3e9: median of the values (2.25e9), and
     * the median time 1.5 ms */
    CHECK_NEAR(r.stats.median, 2.25e9, 1e-12);
    CHECK_NEAR(r.stats.max, 3e9, 1e-12);
    CHECK_NEAR(r.time, 1.5e-3, 1e-12);
    CHECK_STR(r.unit, "B/s");
    sn__bench_result_release(&r);
}

static void test_pack_round_trips_and_rejects_truncation(void)
{
    struct sn_bench_result r[2];
    struct sn_bench_results res;
    struct sn_buf b;
    struct sn_error err;

    r[0] = sample_result();
    r[1] = sample_result();
    r[1].rank = 4;
    sn_buf_init(&b);
    sn__bench_pack(r, 2, &b);
    sn_bench_results_init(&res);
    REQUIRE(sn__bench_unpack(b.data, b.len, &res, &err) == SN_OK);
    REQUIRE(res.n == 2);
    CHECK(res.items[1].rank == 4 && res.items[1].nsamples == 4);
    CHECK(res.items[0].samples[2] == 4e-3);
    CHECK_STR(res.items[0].host, "node-a");
    sn_bench_results_release(&res);
    sn_bench_results_init(&res);
    CHECK(sn__bench_unpack(b.data, b.len - 8, &res, &err) == SN_ERUNTIME);
    CHECK_CONTAINS(err.msg, "truncated");
    sn_bench_results_release(&res);
    sn_buf_release(&b);
    sn__bench_result_release(&r[0]);
    sn__bench_result_release(&r[1]);
}

static void test_json_carries_schema_units_and_samples(void)
{
    struct sn_bench_results res;
    struct sn_bench_result r = sample_result();
    struct sn_buf b;

    sn_bench_results_init(&res);
    sn_strlcpy(res.backend, "cpu", sizeof(res.backend));
    sn_strlcpy(res.versions.tool, "0.1.0", sizeof(res.versions.tool));
    r.expected = 4.5e9;
    sn_strlcpy(r.expected_src, "catalog hbm_bw", sizeof(r.expected_src));
    sn__bench_results_add(&res, &r);
    sn__bench_results_note(&res, "h2d skipped: %s", "no device");
    res.complete = false;
    sn_strlcpy(res.abort_msg, "rank 1 is behind", sizeof(res.abort_msg));
    res.sampling.warmup = 2;
    res.sampling.iters = 20;
    res.sampling.until_ci = 0.01;
    res.sampling.max_iters = 1000;
    sn_buf_init(&b);
    sn_render_bench_json(&res, &b);
    /* how the samples were taken travels with them */
    CHECK_CONTAINS(b.data, "\"warmup\": 2");
    CHECK_CONTAINS(b.data, "\"iters\": 20");
    CHECK_CONTAINS(b.data, "\"until_ci\": 0.01");
    CHECK_CONTAINS(b.data, "\"max_iters\": 1000");
    CHECK_CONTAINS(b.data, "\"schema\": \"supernode.bench/2\"");
    CHECK_CONTAINS(b.data, "\"complete\": false");
    CHECK_CONTAINS(b.data, "\"message\": \"rank 1 is behind\"");
    CHECK_CONTAINS(b.data, "\"unit\": \"B/s\"");
    CHECK_CONTAINS(b.data, "\"samples_s\": [0.002,0.001,0.004,0.001]");
    CHECK_CONTAINS(b.data, "\"cuda_runtime\": null");
    CHECK_CONTAINS(b.data, "\"h2d skipped: no device\"");
    CHECK_CONTAINS(b.data, "\"value\": 2250000000");
    /* beside the design's value: 2.25 of 4.5 GB/s */
    CHECK_CONTAINS(b.data, "\"source\": \"catalog hbm_bw\"");
    CHECK_CONTAINS(b.data, "\"efficiency\": 0.5");
    sn_buf_reset(&b);
    sn_render_bench_text(&res, &b);
    CHECK_CONTAINS(b.data, "Triad:");
    CHECK_CONTAINS(b.data, "Best Rate MB/s");
    CHECK_CONTAINS(b.data, "eff%");
    CHECK_CONTAINS(b.data, " 50.0");
    CHECK_CONTAINS(b.data, "# INCOMPLETE: rank 1 is behind");
    sn_buf_release(&b);
    sn_bench_results_release(&res);
    sn__bench_result_release(&r);
}

static void test_json_efficiency_is_design_over_time_for_times(void)
{
    struct sn_bench_results res;
    struct sn_bench_result r;
    double t[3] = {2e-6, 2e-6, 2e-6};
    struct sn_buf b;

    /* a latency of 2 us against a design of 1.5 us is 75% of the design */
    sn__bench_result_init(&r);
    r.test = SN_BENCH_LATENCY;
    sn_strlcpy(r.op, "latency", sizeof(r.op));
    sn__bench_result_samples(&r, t, 3, 0, "latency", "s");
    r.expected = 1.5e-6;
    sn_strlcpy(r.expected_src, "sim pairs latency", sizeof(r.expected_src));
    sn_bench_results_init(&res);
    sn__bench_results_add(&res, &r);
    sn_buf_init(&b);
    sn_render_bench_json(&res, &b);
    CHECK_CONTAINS(b.data, "\"efficiency\": 0.75");
    sn_buf_release(&b);
    sn_bench_results_release(&res);
    sn__bench_result_release(&r);
}

static void test_json_state_leaves_unread_fields_null(void)
{
    struct sn_bench_results res;
    struct sn_bench_result r = sample_result();
    struct sn_buf b;

    /* the cpu backend reads the host only: the accelerator's fields,
     * throttle reasons included, are unread, which is not "no reason" */
    r.before.valid = r.after.valid = true;
    r.before.cpu_freq_hz = r.after.cpu_freq_hz = 2.5e9;
    sn_bench_results_init(&res);
    sn__bench_results_add(&res, &r);
    sn_buf_init(&b);
    sn_render_bench_json(&res, &b);
    CHECK_CONTAINS(b.data, "\"cpu_freq_hz\": 2500000000");
    CHECK_CONTAINS(b.data, "\"sm_clock_hz\": null");
    CHECK_CONTAINS(b.data, "\"throttle_reasons\": null");
    CHECK(!strstr(b.data, "\"throttle_reasons\": 0"));
    sn_bench_results_release(&res);
    /* NVML answered: its mask is written, 0 (no reason) included */
    r.before.throttle_read = true;
    r.before.throttle = 0;
    r.after.throttle_read = true;
    r.after.throttle = 0x20; /* software thermal slowdown (nvml.h) */
    sn_bench_results_init(&res);
    sn__bench_results_add(&res, &r);
    sn_buf_reset(&b);
    sn_render_bench_json(&res, &b);
    CHECK_CONTAINS(b.data, "\"throttle_reasons\": 0");
    CHECK_CONTAINS(b.data, "\"throttle_reasons\": 32");
    sn_buf_release(&b);
    sn_bench_results_release(&res);
    sn__bench_result_release(&r);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void mkdirs(const char *path)
{
    char tmp[512];

    sn_strlcpy(tmp, path, sizeof(tmp));
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(tmp, 0755);
            *p = '/';
        }
    }
    mkdir(tmp, 0755);
}

static void test_state_reads_sysfs_under_root(void)
{
    char root[] = "/tmp/sn-bench-sysfs-XXXXXX", path[512];
    struct sn_bench_state st;

    REQUIRE(mkdtemp(root) != NULL);
    /* every CPU this process may run on reports 2.5 GHz, performance */
    for (int cpu = 0; cpu < 256; cpu++) {
        snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%d/cpufreq",
                 root, cpu);
        mkdirs(path);
        snprintf(path, sizeof(path),
                 "%s/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq",
                 root, cpu);
        write_file(path, "2500000\n");
        snprintf(path, sizeof(path),
                 "%s/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
                 root, cpu);
        write_file(path, "performance\n");
    }
    snprintf(path, sizeof(path), "%s/sys/class/thermal/thermal_zone0", root);
    mkdirs(path);
    snprintf(path, sizeof(path), "%s/sys/class/thermal/thermal_zone1", root);
    mkdirs(path);
    snprintf(path, sizeof(path), "%s/sys/class/thermal/thermal_zone0/temp",
             root);
    write_file(path, "45000\n");
    snprintf(path, sizeof(path), "%s/sys/class/thermal/thermal_zone1/temp",
             root);
    write_file(path, "71500\n");
    /* caches: level 1 32 KiB, level 3 32 MiB: the largest level wins */
    snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu0/cache/index0",
             root);
    mkdirs(path);
    snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu0/cache/index3",
             root);
    mkdirs(path);
    snprintf(path, sizeof(path),
             "%s/sys/devices/system/cpu/cpu0/cache/index0/level", root);
    write_file(path, "1\n");
    snprintf(path, sizeof(path),
             "%s/sys/devices/system/cpu/cpu0/cache/index0/size", root);
    write_file(path, "32K\n");
    snprintf(path, sizeof(path),
             "%s/sys/devices/system/cpu/cpu0/cache/index3/level", root);
    write_file(path, "3\n");
    snprintf(path, sizeof(path),
             "%s/sys/devices/system/cpu/cpu0/cache/index3/size", root);
    write_file(path, "32768K\n");
    CHECK_NEAR(sn__bench_llc_bytes(root), 32.0 * 1048576, 1e-12);
    CHECK(sn__bench_llc_bytes("/nonexistent-root") == 0);
    memset(&st, 0, sizeof(st));
    sn__bench_state_cpu(root, &st);
    CHECK(st.valid);
    CHECK_NEAR(st.cpu_freq_hz, 2.5e9, 1e-12);
    CHECK_STR(st.governor, "performance");
    CHECK_NEAR(st.cpu_temp_c, 71.5, 1e-12);
    snprintf(path, sizeof(path), "rm -rf '%s'", root);
    CHECK(system(path) == 0);
}

static void test_state_without_sysfs_is_unreadable_not_zero(void)
{
    struct sn_bench_state st;

    memset(&st, 0, sizeof(st));
    sn__bench_state_cpu("/nonexistent-root", &st);
    CHECK(isnan(st.cpu_freq_hz));
    CHECK(isnan(st.cpu_temp_c));
    CHECK(st.governor[0] == '\0');
}

/* ---- against the design ------------------------------------------------- */

/* One bench result of rank on test, as the runners fill them. */
static struct sn_bench_result *
bench_one(struct sn_bench_result *r, enum sn_bench_test test, const char *op,
          const char *unit, int rank, int peer, int round, int concurrent)
{
    sn__bench_result_init(r);
    r->test = test;
    snprintf(r->op, sizeof(r->op), "%s", op);
    snprintf(r->unit, sizeof(r->unit), "%s", unit);
    r->rank = rank;
    r->peer = peer;
    r->round = round;
    r->concurrent = concurrent;
    r->subject = peer >= 0 ? SN_SUBJECT_PAIR : SN_SUBJECT_DEVICE;
    r->nranks = peer >= 0 ? 2 : 1;
    return r;
}

static void test_json_bus_bandwidth_in_gbps_as_sim_coll(void)
{
    struct sn_bench_results res;
    struct sn_bench_result r;
    struct sn_buf b;
    double t[2] = {1e-3, 1e-3};

    sn_bench_results_init(&res);
    /* 1 MB all-reduce over 4 ranks in 1 ms: algbw 1 GB/s, busbw 1.5 */
    bench_one(&r, SN_BENCH_COLL, "allreduce", "s", 0, -1, -1, 0);
    r.subject = SN_SUBJECT_GROUP;
    r.nranks = 4;
    r.bytes = 1000000;
    sn__bench_result_samples(&r, t, 2, 0, "time", "s");
    r.algbw = 1e9;
    r.busbw = 1.5e9;
    sn__bench_results_add(&res, &r);
    sn_buf_init(&b);
    sn_render_bench_json(&res, &b);
    CHECK_CONTAINS(b.data, "\"algbw_GBps\": 1,");
    CHECK_CONTAINS(b.data, "\"busbw_GBps\": 1.5,");
    CHECK(!strstr(b.data, "\"busbw\":") && !strstr(b.data, "\"algbw\":"));
    sn_buf_release(&b);
    sn__bench_result_release(&r);
    sn_bench_results_release(&res);
}

enum {
    B_BF16,
    B_TRIAD,
    B_UNI_04,
    B_UNI_15,
    B_ISO_04,
    B_AGG_ISO_26,
    B_LAT_04,
    B_AGG,
    B_ALLREDUCE,
    B_LAT_ALLREDUCE,
    B_N
};

/* One result of each kind of an eight-rank job on two-servers.yaml. */
static void bench_kinds(struct sn_bench_result *r)
{
    bench_one(&r[B_BF16], SN_BENCH_COMPUTE, "gemm", "FLOP/s", 0, -1, -1, 0);
    snprintf(r[B_BF16].dtype, sizeof(r[B_BF16].dtype), "bf16");
    bench_one(&r[B_TRIAD], SN_BENCH_MEMORY, "triad", "B/s", 3, -1, -1, 0);
    bench_one(&r[B_UNI_04], SN_BENCH_PAIRS, "uni", "B/s", 0, 4, 1, 1);
    bench_one(&r[B_UNI_15], SN_BENCH_PAIRS, "uni", "B/s", 1, 5, 1, 1);
    bench_one(&r[B_ISO_04], SN_BENCH_PAIRS, "uni", "B/s", 0, 4, 1, 0);
    bench_one(&r[B_AGG_ISO_26], SN_BENCH_AGGREGATE, "isolated", "B/s", 2, 6, 1,
              0);
    bench_one(&r[B_LAT_04], SN_BENCH_PAIRS, "latency", "s", 0, 4, 1, 1);
    bench_one(&r[B_AGG], SN_BENCH_AGGREGATE, "aggregate", "B/s", 0, -1, 0, 1);
    r[B_AGG].subject = SN_SUBJECT_GROUP;
    r[B_AGG].nranks = 8;
    bench_one(&r[B_ALLREDUCE], SN_BENCH_COLL, "allreduce", "s", 0, -1, -1, 0);
    r[B_ALLREDUCE].subject = SN_SUBJECT_GROUP;
    r[B_ALLREDUCE].nranks = 8;
    r[B_ALLREDUCE].bytes = 64u << 20;
    bench_one(&r[B_LAT_ALLREDUCE], SN_BENCH_LATENCY, "allreduce", "s", 0, -1,
              -1, 0);
    r[B_LAT_ALLREDUCE].subject = SN_SUBJECT_GROUP;
    r[B_LAT_ALLREDUCE].nranks = 8;
    r[B_LAT_ALLREDUCE].bytes = 8;
}

static void test_bench_expects_what_check_expects(void)
{
    struct sn_spec spec;
    struct sn_topo *t = NULL;
    struct sn_coll_model *m = NULL;
    struct sn_coll_result cr;
    struct sn_group g = {0, 8, 1, NULL};
    struct sn_bench_result r[B_N];
    struct sn_error err;

    REQUIRE(sn_spec_load("tests/fixtures/expect/two-servers.yaml", &spec,
                         &err) == SN_OK);
    REQUIRE(sn_topo_build(&spec, &t, &err) == SN_OK);
    bench_kinds(r);
    REQUIRE(sn_bench_expect(&spec, t, SN_BENCH_CUDA, NULL, 8, r, B_N, &err) ==
            SN_OK);
    CHECK_NEAR(r[B_BF16].expected, 989.4e12, 1e-9);
    CHECK_STR(r[B_BF16].expected_src, "catalog bf16_flops");
    CHECK_NEAR(r[B_TRIAD].expected, 3.35e12, 1e-9);
    /* 0->4 and 1->5 at once share server 0's one 50 GB/s NIC (the
     * isolated copy of 0->4 and the aggregate's pair alone do not count:
     * they ran on their own) */
    CHECK_NEAR(r[B_UNI_04].expected, 25e9, 1e-6);
    CHECK_NEAR(r[B_UNI_15].expected, 25e9, 1e-6);
    CHECK_STR(r[B_UNI_04].expected_src, "routes, shared in the round");
    CHECK_NEAR(r[B_ISO_04].expected, 50e9, 1e-6);
    CHECK_STR(r[B_ISO_04].expected_src, "routes");
    CHECK_NEAR(r[B_AGG_ISO_26].expected, 50e9, 1e-6);
    /* round 0 of eight ranks: 0-7, 1-6, 2-5, 3-4, every pair across the
     * servers, both ways at once: the two NICs' 50 GB/s each way */
    CHECK_NEAR(r[B_AGG].expected, 100e9, 1e-6);
    CHECK_STR(r[B_AGG].expected_src, "routes, shared in the round, summed");
    /* latencies: none, as check gives none */
    CHECK(r[B_LAT_04].expected == 0 && r[B_LAT_ALLREDUCE].expected == 0);
    /* the collective: what `sim coll` predicts over ranks 0 .. 7 */
    REQUIRE(sn_coll_model_new(t, &m, &err) == SN_OK);
    REQUIRE(sn_coll_predict(m, SN_COLL_ALLREDUCE, &g, 64.0 * (1 << 20),
                            SN_ALGO_AUTO, &cr, &err) == SN_OK);
    CHECK_NEAR(r[B_ALLREDUCE].expected, cr.time, 1e-12);
    CHECK_STR(r[B_ALLREDUCE].expected_src, "the collective model");
    for (int i = 0; i < B_N; i++)
        sn__bench_result_release(&r[i]);
    /* on the cpu backend: no device memory, no scale-up fabric, no NCCL */
    bench_kinds(r);
    REQUIRE(sn_bench_expect(&spec, t, SN_BENCH_CPU, NULL, 8, r, B_N, &err) ==
            SN_OK);
    CHECK_NEAR(r[B_BF16].expected, 989.4e12, 1e-9);
    CHECK(r[B_TRIAD].expected == 0 && r[B_ALLREDUCE].expected == 0);
    CHECK_NEAR(r[B_UNI_04].expected, 25e9, 1e-6);
    /* without a topology: the catalog's values only */
    for (int i = 0; i < B_N; i++)
        sn__bench_result_release(&r[i]);
    bench_kinds(r);
    REQUIRE(sn_bench_expect(&spec, NULL, SN_BENCH_CUDA, NULL, 8, r, B_N,
                            &err) == SN_OK);
    CHECK_NEAR(r[B_TRIAD].expected, 3.35e12, 1e-9);
    CHECK(r[B_UNI_04].expected == 0 && r[B_AGG].expected == 0);
    for (int i = 0; i < B_N; i++)
        sn__bench_result_release(&r[i]);
    sn_coll_model_free(m);
    sn_topo_free(t);
    sn_spec_release(&spec);
}

static void test_result_store_types_params_rounds_and_busbw(void)
{
    struct sn_bench_result r;
    struct sn_results rs;
    double t[2] = {1e-3, 2e-3};

    sn_results_init(&rs);
    /* an all-reduce of 1 MB over 4 ranks: times become busbw */
    bench_one(&r, SN_BENCH_COLL, "allreduce", "s", 0, -1, -1, 0);
    r.subject = SN_SUBJECT_GROUP;
    r.nranks = 4;
    r.bytes = 1000000;
    r.inplace = 0;
    snprintf(r.dtype, sizeof(r.dtype), "fp32");
    snprintf(r.redop, sizeof(r.redop), "sum");
    sn__bench_result_samples(&r, t, 2, 0, "time", "s");
    sn_bench_result_store(&r, 4, &rs);
    sn__bench_result_release(&r);
    /* an --isolated pair: no round, it shared with nobody */
    bench_one(&r, SN_BENCH_PAIRS, "uni", "B/s", 1, 2, 3, 0);
    r.bytes = 1000;
    sn__bench_result_samples(&r, t, 2, 1000, "bandwidth", "B/s");
    sn_bench_result_store(&r, 4, &rs);
    r.concurrent = 1;
    sn_bench_result_store(&r, 4, &rs);
    sn__bench_result_release(&r);
    REQUIRE(rs.n == 3);
    CHECK_STR(rs.items[0].test, "coll.allreduce.busbw");
    CHECK_STR(rs.items[0].params,
              "bytes=1000000,dtype=fp32,inplace=0,redop=sum");
    CHECK(rs.items[0].bytes == 1000000 && !strcmp(rs.items[0].dtype, "fp32"));
    CHECK_STR(rs.items[0].unit, "B/s");
    /* nccl-tests: 1 MB in 1 ms is 1 GB/s algbw, x 2(n-1)/n = 1.5 */
    CHECK_NEAR(rs.items[0].samples[0], 1.5e9, 1e-12);
    CHECK(rs.items[0].subject == SN_SUBJECT_GROUP && rs.items[0].b == 4);
    CHECK_STR(rs.items[1].test, "pairs.uni");
    CHECK(rs.items[1].round == SN_STORE_NO_RANK);
    CHECK(rs.items[2].round == 3);
    CHECK_NEAR(rs.items[1].samples[0], 1e6, 1e-12);
    sn_results_release(&rs);
}

static const struct sn_test cases[] = {
    T(test_stats_one_to_ten_match_numpy),
    T(test_stats_ci_of_median_for_ten_samples),
    T(test_stats_ci_indices_match_table),
    T(test_stats_small_and_empty_inputs),
    T(test_stats_tail_percentiles_see_outliers),
    T(test_histogram_bins_four_per_octave),
    T(test_tournament_meets_every_pair_once),
    T(test_tournament_of_one_has_no_rounds),
    T(test_bus_factors_follow_nccl_tests),
    T(test_names_parse_ours_and_nccl_tests),
    T(test_result_values_are_work_over_time),
    T(test_pack_round_trips_and_rejects_truncation),
    T(test_json_carries_schema_units_and_samples),
    T(test_json_bus_bandwidth_in_gbps_as_sim_coll),
    T(test_json_efficiency_is_design_over_time_for_times),
    T(test_json_state_leaves_unread_fields_null),
    T(test_state_reads_sysfs_under_root),
    T(test_state_without_sysfs_is_unreadable_not_zero),
    T(test_bench_expects_what_check_expects),
    T(test_result_store_types_params_rounds_and_busbw),
};

SN_TEST_MAIN(cases)

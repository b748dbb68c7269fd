/* cmd-bench-power.c: `supernode bench power`: GEMM throughput and board
 * power at a sweep of power limits (or locked SM clocks) on one GPU, put
 * back afterwards; the curve as text and JSON. cmd-bench.c hands over
 * when the first word is "power"; the sweep is the library's
 * (src/lib/bench/power.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-health.h"
#include "cmd.h"

/* A comma-separated list of whole numbers in [min, max]: power limits
 * (watts) or clocks (MHz). */
static int parse_numbers(const char *opt, const char *v, long long min,
                         long long max, double *limits, unsigned *clocks,
                         size_t *n)
{
    long long x[SN_BENCH_POWER_MAX];
    int rc = cli_parse_list(opt, v, min, max, x, SN_BENCH_POWER_MAX, n);

    for (size_t k = 0; !rc && k < *n; k++) {
        if (limits)
            limits[k] = (double)x[k];
        else
            clocks[k] = (unsigned)x[k];
    }
    return rc;
}

/* One option at argv[*i]; *rc set on a bad one. Returns 1 when taken. */
static int parse_opt(int argc, char **argv, int *i, struct sn_bench_opts *o,
                     struct sn_bench_power_plan *plan, const char **json,
                     int *rc)
{
    struct sn_error err;
    const char *v;
    long long x;

    if ((v = cli_opt_value(argc, argv, i, "--limits", NULL, rc)))
        *rc = parse_numbers("--limits", v, 1, 100000, plan->limits_w, NULL,
                            &plan->nlimits);
    else if (!*rc && (v = cli_opt_value(argc, argv, i, "--clocks", NULL, rc)))
        *rc = parse_numbers("--clocks", v, 1, 100000, NULL, plan->sm_mhz,
                            &plan->nclocks);
    else if (!*rc && (v = cli_opt_value(argc, argv, i, "--steps", NULL, rc))) {
        if (!(*rc = cli_parse_long("--steps", v, 2, SN_BENCH_POWER_MAX, &x)))
            plan->steps = (int)x;
    } else if (!*rc &&
               (v = cli_opt_value(argc, argv, i, "-n", "--iters", rc))) {
        if (!(*rc = cli_parse_long("--iters", v, 1, 1000000, &x)))
            plan->iters = (int)x;
    } else if (!*rc &&
               (v = cli_opt_value(argc, argv, i, "--gemm-size", NULL, rc))) {
        if (!(*rc = cli_parse_long("--gemm-size", v, 1, 65536, &x)))
            o->gemm_size = (int)x;
    } else if (!*rc &&
               (v = cli_opt_value(argc, argv, i, "--seconds", NULL, rc))) {
        if (sn_parse_double(v, &plan->seconds, &err) || plan->seconds <= 0 ||
            plan->seconds > 3600)
            *rc = cli_usage_error("--seconds: '%s' is not a time in seconds "
                                  "above 0 and at most 3600",
                                  v);
    } else if (!*rc &&
               (v = cli_opt_value(argc, argv, i, "--dtype", NULL, rc))) {
        if (sn_bench_dtype_parse(v, &plan->dtype, &err))
            *rc = cli_usage_error("--dtype: %s", err.msg);
    } else if (!*rc &&
               (v = cli_opt_value(argc, argv, i, "--backend", NULL, rc))) {
        if (sn_bench_backend_parse(v, &o->backend, &err))
            *rc = cli_usage_error("%s", err.msg);
    } else if (!*rc && (v = cli_opt_value(argc, argv, i, "--nvml", NULL, rc)))
        o->nvml_library = cli_nvml_library(v);
    else if (!*rc && (v = cli_opt_value(argc, argv, i, "--json", NULL, rc)))
        *json = v;
    else
        return *rc != 0;
    return 1;
}

int cli_bench_power(int argc, char **argv)
{
    struct sn_bench_power_plan plan;
    struct sn_bench_power_curve curve;
    struct sn_bench_opts o;
    struct sn_bench_results res;
    struct sn_bench_job *job = NULL;
    struct sn_error err;
    struct sn_buf out;
    const char *json = NULL;
    int rc = SN_EXIT_OK, status;
    bool dtype_given = false;

    memset(&plan, 0, sizeof(plan));
    sn_bench_opts_init(&o);
    if (cli_nvml_library(NULL)) /* $SN_NVML_LIBRARY; --nvml wins */
        o.nvml_library = cli_nvml_library(NULL);
    for (int i = 1; i < argc && !rc; i++) {
        dtype_given |= !strncmp(argv[i], "--dtype", 7);
        if (!parse_opt(argc, argv, &i, &o, &plan, &json, &rc))
            rc = cli_usage_error("bench power: unknown argument '%s' (see "
                                 "'supernode help bench')",
                                 argv[i]);
    }
    if (rc)
        return rc;
    if (plan.nclocks && (plan.nlimits || plan.steps))
        return cli_usage_error("bench power: --clocks sweeps clocks, "
                               "--limits and --steps power limits: give one");
    if (plan.nlimits && plan.steps)
        return cli_usage_error("bench power: --limits and --steps both "
                               "given: give one");
    /* the tensor cores' type on a GPU, the CPU's own on the cpu backend */
    if (!dtype_given)
        plan.dtype = o.backend == SN_BENCH_CUDA ? SN_DT_BF16 : SN_DT_FP64;
    if (!sn_bench_backend_available(o.backend)) {
        fprintf(stderr,
                "supernode: bench power: the %s backend is not "
                "available: %s\n",
                sn_bench_backend_name(o.backend),
                sn_bench_backend_why(o.backend));
        return SN_EXIT_RUN;
    }
    if (json && (rc = cli_outputs_check(&json, 1)))
        return rc;
    plan.out = &curve;
    o.power = &plan;
    o.catch_signals = true;
    sn_bench_results_init(&res);
    sn_buf_init(&out);
    if (sn_bench_job_new(&job, &err)) {
        status = cli_fail(&err);
        goto out;
    }
    if (sn_bench_run(job, &o, &res, &err)) {
        status = err.code == SN_EINPUT ? (cli_fail(&err), SN_EXIT_USAGE)
                                       : cli_fail(&err);
        goto out;
    }
    sn_render_power_text(&curve, &out);
    cli_print(&out);
    status = SN_EXIT_OK;
    if (json) {
        sn_buf_reset(&out);
        sn_render_power_json(&curve, &out);
        status = cli_write(json, &out);
    }
out:
    sn_buf_release(&out);
    sn_bench_results_release(&res);
    sn_bench_job_free(job);
    return status;
}

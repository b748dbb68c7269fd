/* cli-infer.c: the serving options `sim infer` and `sweep --infer` share:
 * the requests (--isl, --osl, --mtp with --accept), the number formats
 * (--precision,
 * --kv-precision), the latency limits (--ttft, --tpot) and how the
 * runtime batches (--cuda-graphs, --max-tokens). */
#include <string.h>

#include "cmd.h"
#include "sn/infer.h"

_Static_assert(CLI_GRAPHS_MAX == SN_INFER_GRAPHS_MAX,
               "--cuda-graphs holds what sn_infer_work does");

#define LEN_MAX 10000000 /* tokens per request: ten times any context */

static int parse_time(const char *opt, const char *v, double *out)
{
    struct sn_error err;

    if (sn_unit_parse(v, SN_UNIT_TIME, false, out, &err) || !(*out > 0))
        return cli_usage_error("%s '%s': expected a time such as 50ms or "
                               "2s",
                               opt, v);
    return SN_EXIT_OK;
}

static int parse_dtype(const char *opt, const char *v, int *out)
{
    enum sn_dtype d;
    struct sn_error err;

    if (sn_dtype_parse(v, &d, &err))
        return cli_usage_error("%s: %s", opt, err.msg);
    *out = (int)d;
    return SN_EXIT_OK;
}

/* --accept: the share of drafted tokens accepted, 0 < R <= 1. */
static int parse_accept(const char *v, double *out)
{
    if (sn_parse_double(v, out, NULL) || !(*out > 0 && *out <= 1))
        return cli_usage_error("--accept '%s': expected the share of "
                               "drafted tokens accepted, above 0 and at "
                               "most 1, such as 0.7",
                               v);
    return SN_EXIT_OK;
}

/* --cuda-graphs: ascending sizes, comma-separated, or trtllm-bench. */
static int parse_graphs(const char *v, struct cli_infer_req *q)
{
    long long x[CLI_GRAPHS_MAX];
    size_t n = 0;
    int rc;

    if (!strcmp(v, "trtllm-bench")) {
        struct sn_infer_work w = {0};

        sn_infer_trtllm_bench(&w);
        q->ngraphs = w.ngraphs;
        memcpy(q->graphs, w.graphs, sizeof(int) * (size_t)w.ngraphs);
        return SN_EXIT_OK;
    }
    rc = cli_parse_list("--cuda-graphs", v, 1, 1000000, x, CLI_GRAPHS_MAX, &n);
    for (size_t k = 0; !rc && k < n; k++) {
        if (k && x[k] <= x[k - 1])
            return cli_usage_error("--cuda-graphs '%s': expected up to %d "
                                   "batch sizes in ascending order, 1 to "
                                   "1000000, comma-separated (or "
                                   "trtllm-bench)",
                                   v, CLI_GRAPHS_MAX);
        q->graphs[k] = (int)x[k];
    }
    q->ngraphs = rc ? 0 : (int)n;
    return rc;
}

/* --max-tokens: tokens of one forward pass, or trtllm-bench's rule. */
static int parse_tokens(const char *v, struct cli_infer_req *q)
{
    long long n;
    struct sn_error err;

    if (!strcmp(v, "trtllm-bench")) {
        q->max_tokens = SN_INFER_TOKENS_BENCH;
        return SN_EXIT_OK;
    }
    if (sn_parse_long(v, 1, 1000000, &n, &err))
        return cli_usage_error("--max-tokens '%s': expected 1 to 1000000 "
                               "tokens or trtllm-bench",
                               v);
    q->max_tokens = (int)n;
    return SN_EXIT_OK;
}

void cli_infer_req_init(struct cli_infer_req *q)
{
    memset(q, 0, sizeof(*q));
    q->isl = q->osl = 1024;
    q->precision = q->kv = -1;
}

int cli_infer_req_opt(int argc, char **argv, int *i, struct cli_infer_req *q,
                      int *rc)
{
    static const struct cli_num_opt nums[] = {
        {"--isl", 1, LEN_MAX, offsetof(struct cli_infer_req, isl)},
        {"--osl", 1, LEN_MAX, offsetof(struct cli_infer_req, osl)},
        {"--mtp", 0, 8, offsetof(struct cli_infer_req, mtp)},
    };
    const char *v;

    if (cli_num_opt(argc, argv, i, nums, SN_ARRAY_LEN(nums), q, rc)) {
        q->given = true;
        return 1;
    }
    if ((v = cli_opt_value(argc, argv, i, "--precision", NULL, rc)))
        *rc = parse_dtype("--precision", v, &q->precision);
    else if ((v = cli_opt_value(argc, argv, i, "--kv-precision", NULL, rc)))
        *rc = parse_dtype("--kv-precision", v, &q->kv);
    else if ((v = cli_opt_value(argc, argv, i, "--ttft", NULL, rc)))
        *rc = parse_time("--ttft", v, &q->ttft);
    else if ((v = cli_opt_value(argc, argv, i, "--tpot", NULL, rc)))
        *rc = parse_time("--tpot", v, &q->tpot);
    else if ((v = cli_opt_value(argc, argv, i, "--cuda-graphs", NULL, rc)))
        *rc = parse_graphs(v, q);
    else if ((v = cli_opt_value(argc, argv, i, "--max-tokens", NULL, rc)))
        *rc = parse_tokens(v, q);
    else if ((v = cli_opt_value(argc, argv, i, "--accept", NULL, rc)))
        *rc = parse_accept(v, &q->accept);
    else
        return *rc != 0;
    q->given = true;
    return 1;
}

void cli_infer_req_work(const struct cli_infer_req *q, struct sn_infer_work *w,
                        struct sn_infer_limits *lim)
{
    memset(w, 0, sizeof(*w));
    w->isl = (int)q->isl;
    w->osl = (int)q->osl;
    w->precision =
        q->precision >= 0 ? (enum sn_dtype)q->precision : SN_DTYPE_BF16;
    w->kv = q->kv >= 0 ? (enum sn_dtype)q->kv : SN_DTYPE_BF16;
    w->mtp = (int)q->mtp;
    w->accept = q->accept;
    w->ngraphs = q->ngraphs;
    memcpy(w->graphs, q->graphs, sizeof(int) * (size_t)q->ngraphs);
    w->max_tokens = q->max_tokens;
    lim->ttft = q->ttft;
    lim->tpot = q->tpot;
}

/* validate-infer.c: the serving model against measured public runs (the
 * columns of validation/inference-public.csv: source, model, gpu, n_gpus,
 * precision, kv_precision, tp, ep, pp, dp_attention, mode, isl, osl,
 * concurrency, slo, measured_metric, measured_value, notes). A row's
 * replica is as wide as the largest of tp, ep and the attention
 * data-parallel degree; the row's GPUs hold gpus / width replicas. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate-int.h"

enum {
    I_SOURCE,
    I_MODEL,
    I_GPU,
    I_NGPUS,
    I_PRECISION,
    I_KV,
    I_TP,
    I_EP,
    I_PP,
    I_DPA,
    I_MODE,
    I_ISL,
    I_OSL,
    I_CONC,
    I_SLO,
    I_METRIC,
    I_VALUE,
    I_NOTES,
    I_COUNT
};

static const char *const icol_names[I_COUNT] = {
    "source",
    "model",
    "gpu",
    "n_gpus",
    "precision",
    "kv_precision",
    "tp",
    "ep",
    "pp",
    "dp_attention",
    "mode",
    "isl",
    "osl",
    "concurrency",
    "slo",
    "measured_metric",
    "measured_value",
    "notes",
};

static const bool icol_required[I_COUNT] = {
    [I_MODEL] = true, [I_GPU] = true,    [I_NGPUS] = true,
    [I_ISL] = true,   [I_METRIC] = true, [I_VALUE] = true,
};

/* The metrics the serving file measures, and each from a prediction of
 * one replica (replicas of them on the row's GPUs). A total (input +
 * output) throughput is the output one times (isl + osl) / osl. */
static bool metric_of(const char *m, const struct sn_infer_result *r,
                      const struct sn_infer_work *w, int replicas, double *v)
{
    double total = (double)(w->isl + w->osl) / w->osl;

    if (!strcmp(m, "output_tokens_per_s"))
        *v = r->output_tps * replicas;
    else if (!strcmp(m, "output_tokens_per_s_per_gpu"))
        *v = r->output_tps_gpu;
    else if (!strcmp(m, "total_tokens_per_s"))
        *v = r->output_tps * replicas * total;
    else if (!strcmp(m, "total_tokens_per_s_per_gpu"))
        *v = r->output_tps_gpu * total;
    else if (!strcmp(m, "output_tokens_per_s_per_user"))
        *v = r->output_tps_user;
    else if (!strcmp(m, "prefill_tokens_per_s_per_gpu"))
        *v = r->prefill_tps_gpu;
    else if (!strcmp(m, "decode_tokens_per_s_per_gpu"))
        *v = r->decode_tps_gpu;
    else if (!strcmp(m, "ttft_s"))
        *v = r->ttft_s;
    else if (!strcmp(m, "tpot_ms"))
        *v = r->tpot_s * 1e3;
    else
        return false;
    return true;
}

/* What a source's per-GPU headline counts: InferenceMAX/InferenceX's
 * `tput_per_gpu` is input + output tokens over the GPUs (its
 * utils/process_result.py, beside output_tput_per_gpu; issue #293), so a
 * row of theirs that names a bare tokens/s per GPU is read as the total. */
static const char *row_metric(char **f, struct sn_validate_row *row)
{
    char src[256];

    sn__validate_lower(f[I_SOURCE], src, sizeof(src));
    if ((strstr(src, "inferencemax") || strstr(src, "inferencex")) &&
        (!strcmp(f[I_METRIC], "tokens_per_s_per_gpu") ||
         !strcmp(f[I_METRIC], "tput_per_gpu"))) {
        sn__validate_append(row->assumed, sizeof(row->assumed),
                            "InferenceMAX's per-GPU figure counts input + "
                            "output tokens");
        return "total_tokens_per_s_per_gpu";
    }
    return f[I_METRIC];
}

/* The slo cell: terms separated by ';' or ',', each `tpot N ms|s`,
 * `ttft N ms|s` or `interactivity N` (tokens/s per user, a TPOT of
 * 1/N s), with '<=', '>=', '=' or ':' allowed before the number. False
 * when a term is none of these. */
static bool parse_slo(const char *cell, double *tpot, double *ttft)
{
    char low[128], *p, *end;

    *tpot = *ttft = 0;
    sn__validate_lower(cell, low, sizeof(low));
    for (p = low; *p;) {
        double v, *dst = NULL, scale = 1;
        bool inter = false;
        while (*p == ' ' || *p == ';' || *p == ',')
            p++;
        if (!*p)
            break;
        if (!strncmp(p, "tpot", 4))
            dst = tpot, p += 4;
        else if (!strncmp(p, "ttft", 4))
            dst = ttft, p += 4;
        else if (!strncmp(p, "interactivity", 13))
            dst = tpot, inter = true, p += 13;
        else
            return false;
        while (*p == ' ' || *p == '<' || *p == '>' || *p == '=' || *p == ':')
            p++;
        v = strtod(p, &end);
        if (end == p || !(v > 0))
            return false;
        p = end;
        while (*p == ' ')
            p++;
        if (!inter && !strncmp(p, "ms", 2))
            scale = 1e-3, p += 2;
        else if (!inter && !strncmp(p, "us", 2))
            scale = 1e-6, p += 2;
        else if (!inter && *p == 's')
            p++;
        else if (!inter)
            return false;
        else
            while (*p && *p != ';' && *p != ',') /* "tok/s/user" */
                p++;
        *dst = inter ? 1 / v : v * scale;
    }
    return *tpot > 0 || *ttft > 0;
}

/* The runtime a row ran on, from its source or notes (TensorRT-LLM when
 * neither names one, said in assumed). */
static enum sn_infer_runtime row_runtime(char **f, struct sn_validate_row *row)
{
    char src[256], notes[512];

    sn__validate_lower(f[I_SOURCE], src, sizeof(src));
    sn__validate_lower(f[I_NOTES], notes, sizeof(notes));
    if (strstr(src, "sglang") || strstr(notes, "sglang"))
        return SN_INFER_SGLANG;
    if (strstr(src, "vllm") || strstr(notes, "vllm"))
        return SN_INFER_VLLM;
    if (!strstr(src, "tensorrt") && !strstr(src, "trtllm") &&
        !strstr(notes, "tensorrt") && !strstr(notes, "trtllm"))
        sn__validate_append(row->assumed, sizeof(row->assumed),
                            "runtime TensorRT-LLM");
    return SN_INFER_TRTLLM;
}

/* A whole number cell: 0 when blank, -1 when not a number in range. */
static long cell(const char *s, long max)
{
    long long v;

    if (!s || !*s)
        return 0;
    if (sn_parse_long(s, 0, max, &v, NULL))
        return -1;
    return (long)v;
}

/* A token-length cell, a whole number or a workload's mean (rounded,
 * said in assumed): 0 when blank, -1 when not a number in range. */
static long length_cell(const char *s, const char *name,
                        struct sn_validate_row *row)
{
    double v;
    long n;
    char buf[64];

    if (!s || !*s)
        return 0;
    if (sn_parse_double(s, &v, NULL) || v < 0 || v > 10000000)
        return -1;
    n = lround(v);
    if (row && n != v) {
        snprintf(buf, sizeof(buf), "mean %s %.6g as %ld", name, v, n);
        sn__validate_append(row->assumed, sizeof(row->assumed), buf);
    }
    return n;
}

static bool wide_ep(const char *notes)
{
    char low[512];

    sn__validate_lower(notes, low, sizeof(low));
    return strstr(low, "large ep") || strstr(low, "large-scale ep") ||
           strstr(low, "wide ep") || strstr(low, "wide-ep");
}

/* A row whose notes name EPLB placed its experts by their measured load
 * (sn_infer_ep_hot takes the balanced imbalance). */
static bool eplb(const char *notes)
{
    char low[512];

    sn__validate_lower(notes, low, sizeof(low));
    return strstr(low, "eplb") != NULL;
}

/* A row whose EP does not divide the experts ran redundant copies (the
 * runtimes need ep to divide the slots: TensorRT-LLM's num_slots,
 * SGLang's --ep-num-redundant-experts): the fewest that make it. */
static void row_redundant(const struct sn_model_info *m,
                          struct sn_validate_row *row)
{
    struct sn_infer_layout *l = &row->ilayout;
    int e = m->experts, slots;
    char buf[96];

    if (e <= 1 || l->ep <= 1 || e % l->ep == 0)
        return;
    slots = (e + l->ep - 1) / l->ep * l->ep;
    if (slots - e > e)
        return; /* the rules refuse it, and say why */
    l->redundant = slots - e;
    snprintf(buf, sizeof(buf), "%d redundant experts (EP %d over %d)",
             l->redundant, l->ep, e);
    sn__validate_append(row->assumed, sizeof(row->assumed), buf);
}

/* The row's layout: tp, ep, dp_attention as given, the replica as wide
 * as the largest. A row on more than one GPU that gives none (tp 1 or
 * empty, no ep, pp or dp_attention) and whose notes say "large EP" (or
 * wide, large-scale) runs expert parallel with attention data-parallel
 * over all its GPUs, as SGLang's and TensorRT-LLM's wide-EP deployments
 * do; one whose notes do not is left to the search (*search). */
static bool row_layout(char **f, int *gpus_io, bool *search,
                       struct sn_validate_row *row)
{
    int gpus = *gpus_io;
    struct sn_infer_layout *l = &row->ilayout;
    long tp = cell(f[I_TP], 100000), ep = cell(f[I_EP], 100000);
    long pp = cell(f[I_PP], 100000), dpa = cell(f[I_DPA], 100000);
    long width;

    if (tp < 0 || ep < 0 || pp < 0 || dpa < 0) {
        snprintf(row->reason, sizeof(row->reason),
                 "tp, ep, pp or dp_attention is not a whole number");
        return false;
    }
    width = tp > ep ? tp : ep;
    if (dpa > width)
        width = dpa;
    *search = width <= 1 && pp <= 1 && gpus > 1;
    if (*search && wide_ep(f[I_NOTES])) {
        *search = false;
        width = ep = dpa = gpus;
        sn__validate_append(row->assumed, sizeof(row->assumed),
                            "notes say large EP: EP and attention DP over "
                            "all GPUs");
    }
    if (*search) {
        l->tp = l->ep = l->pp = 1;
        return true;
    }
    if (width < 1)
        width = 1;
    l->tp = (int)width;
    l->ep = (int)(ep > 0 ? ep : 1);
    l->pp = (int)(pp > 0 ? pp : 1);
    l->dp_attention = dpa > 1;
    if (gpus % (width * l->pp) && width * l->pp < gpus &&
        (!strcmp(f[I_MODE], "prefill") || !strcmp(f[I_MODE], "decode"))) {
        /* a disaggregated deployment's prefill or decode side: its
         * per-GPU figures are the side's own */
        char buf[96];
        snprintf(buf, sizeof(buf), "%s on %ld of the %d GPUs", f[I_MODE],
                 width * l->pp, gpus);
        sn__validate_append(row->assumed, sizeof(row->assumed), buf);
        *gpus_io = (int)(width * l->pp);
    } else if (gpus % (width * l->pp)) {
        snprintf(row->reason, sizeof(row->reason),
                 "a replica of %ld x pp %d GPUs does not divide the %d GPUs",
                 width, l->pp, gpus);
        return false;
    }
    return true;
}

/* An MLPerf Inference DeepSeek-R1 row: its isl and osl may be left to
 * the dataset's means (row_work). */
static bool mlperf_r1(char **f)
{
    char src[256];

    sn__validate_lower(f[I_SOURCE], src, sizeof(src));
    return strstr(src, "mlperf") && !strcmp(f[I_MODEL], "deepseek-r1");
}

/* Formats and speculation from the precision, kv_precision and notes
 * cells; what was taken is said in assumed. */
static void row_work(char **f, struct sn_validate_row *row)
{
    struct sn_infer_work *w = &row->iwork;
    char prec[64], kv[32], notes[512], src[256];
    long isl = length_cell(f[I_ISL], "isl", row);
    long osl = length_cell(f[I_OSL], "osl", row);

    sn__validate_lower(f[I_SOURCE], src, sizeof(src));
    if (strstr(src, "trtllm-bench")) {
        sn_infer_trtllm_bench(w);
        sn__validate_append(row->assumed, sizeof(row->assumed),
                            "trtllm-bench's CUDA graphs and token budget");
    }

    sn__validate_lower(f[I_PRECISION], prec, sizeof(prec));
    sn__validate_lower(f[I_KV], kv, sizeof(kv));
    sn__validate_lower(f[I_NOTES], notes, sizeof(notes));
    w->isl = (int)isl;
    w->osl = osl > 0 ? (int)osl : 0;
    if (osl == 0 && strstr(src, "mlperf") &&
        !strncmp(f[I_MODEL], "llama2-70b", 10)) {
        /* MLPerf Inference llama2-70b (OpenOrca, 24,576 samples): the
         * mean output the accuracy check holds a submission to,
         * TOKENS_PER_SAMPLE 294.45 within 10% (265.005-323.895, printed
         * in each submission's accuracy results) */
        w->osl = 294;
        sn__validate_append(row->assumed, sizeof(row->assumed),
                            "osl: MLPerf OpenOrca's mean output, 294.45 "
                            "tokens");
    }
    if (mlperf_r1(f) && (isl == 0 || osl == 0)) {
        /* MLPerf Inference DeepSeek-R1 (4,388 samples of AIME, MATH500,
         * GPQA, MMLU-Pro and LiveCodeBench): the mean prompt, 803.8
         * tokens (tok_input_len of mlperf_deepseek_r1_dataset_4388_fp8_
         * eval.pkl, the 4,388 rows of openshift-psap/performance-
         * dashboard datasets/summaries/deepseek-r1.csv), and the mean
         * output the accuracy check holds a submission to,
         * TOKENS_PER_SAMPLE 3,886.2274 (mlcommons/inference
         * tools/submission/submission_checker.py) */
        if (isl == 0)
            w->isl = 804;
        if (osl == 0)
            w->osl = 3886;
        sn__validate_append(row->assumed, sizeof(row->assumed),
                            isl == 0 && osl == 0
                                ? "isl/osl: the MLPerf DeepSeek-R1 dataset's "
                                  "means, 804 and 3886 tokens"
                            : isl == 0 ? "isl: the MLPerf DeepSeek-R1 "
                                         "dataset's mean, 804 tokens"
                                       : "osl: the MLPerf DeepSeek-R1 "
                                         "dataset's mean, 3886 tokens");
    }
    w->precision = strstr(prec, "fp4")   ? SN_DTYPE_FP4
                   : strstr(prec, "fp8") ? SN_DTYPE_FP8
                                         : SN_DTYPE_BF16;
    if (strstr(kv, "bf16") || strstr(kv, "fp16"))
        w->kv = SN_DTYPE_BF16;
    else if (strstr(kv, "fp8"))
        w->kv = SN_DTYPE_FP8;
    else if (w->precision != SN_DTYPE_BF16) {
        /* NVIDIA's quantized checkpoints carry an FP8 KV cache */
        w->kv = SN_DTYPE_FP8;
        sn__validate_append(row->assumed, sizeof(row->assumed),
                            "kv fp8 with the quantized weights");
    } else
        w->kv = SN_DTYPE_BF16;
    w->mtp = sn__validate_tagged(notes, "mtp");
    if (w->mtp > 8)
        w->mtp = 0;
    if (w->mtp > 0) {
        /* the acceptance the row states ("acceptance 70%", "accept
         * 0.7"), else DeepSeek-V3's on natural text, said */
        int pct = sn__validate_tagged(notes, "acceptance");
        w->accept = pct > 0 && pct <= 100 ? pct / 100.0 : 0;
        if (w->accept == 0) {
            const char *a = strstr(notes, "accept ");
            double v = a ? atof(a + 7) : 0;
            w->accept = v > 0 && v <= 1 ? v : 0;
        }
        if (w->accept == 0) {
            w->accept = SN_INFER_MTP_ACCEPT_NATURAL;
            char said[64];
            snprintf(said, sizeof(said),
                     "MTP acceptance %.2f (DeepSeek-V3, natural text)",
                     SN_INFER_MTP_ACCEPT_NATURAL);
            sn__validate_append(row->assumed, sizeof(row->assumed), said);
        }
    }
    w->runtime = row_runtime(f, row);
    if (strstr(notes, "two-batch overlap") || strstr(notes, "tbo"))
        row->ilayout.tbo = true;
    if (w->osl == 0) {
        /* a prefill-only measurement: one token out */
        w->osl = 1;
        sn__validate_append(row->assumed, sizeof(row->assumed), "osl 1");
    }
}

/* The model: a catalog preset by name or alias, else the reason. */
static const struct sn_model_info *row_model(char **f,
                                             struct sn_validate_row *row)
{
    const struct sn_model_info *m =
        sn_catalog_model(sn_catalog_builtin(), f[I_MODEL]);

    row->unknown = !m;
    if (!m)
        snprintf(row->reason, sizeof(row->reason),
                 "model '%.60s' is not in the catalog: add it as a model "
                 "file or a preset ('supernode catalog list' shows the "
                 "names and aliases)",
                 f[I_MODEL]);
    return m;
}

/* Points the search may return to validate: more than it times on a
 * thousand GPUs (about 1,400 on 72). */
#define SEARCH_CAP 16384

/* The search's best layout for the row's GPUs and metric: the most of a
 * throughput, the least of a latency, among the layouts that fit (no
 * latency limit) with two-batch overlap as the notes say (a runtime
 * choice the row states, not one for the search); said in assumed. */
static bool search_layout(const struct sn_model_info *m,
                          const struct sn_train_system *sys, int gpus,
                          const char *metric, struct sn_validate_row *row)
{
    struct sn_infer_limits lim = {0, 0};
    struct sn_infer_search_stats st;
    struct sn_error err;
    struct sn_infer_layout *l = &row->ilayout;
    struct sn_infer_point *pts = sn_xcalloc(SEARCH_CAP, sizeof(*pts));
    bool lower = !strcmp(metric, "ttft_s") || !strcmp(metric, "tpot_ms");
    double v, top = 0;
    long best = -1;
    char buf[96];
    size_t n = 0;

    if (sn_infer_search(m, sys, gpus, &row->iwork, &lim, pts, SEARCH_CAP, &n,
                        &st, &err)) {
        snprintf(row->reason, sizeof(row->reason), "search: %.240s", err.msg);
        free(pts);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        int reps = gpus / (pts[i].layout.tp * pts[i].layout.pp);
        if (!pts[i].result.fits || pts[i].layout.tbo != row->ilayout.tbo ||
            !metric_of(metric, &pts[i].result, &row->iwork, reps, &v))
            continue;
        if (best < 0 || (lower ? v < top : v > top)) {
            best = (long)i;
            top = v;
        }
    }
    if (best < 0) {
        snprintf(row->reason, sizeof(row->reason),
                 "no layout given and none of the %zu the search timed fits "
                 "%d GPUs",
                 st.timed, gpus);
        free(pts);
        return false;
    }
    *l = pts[best].layout;
    free(pts);
    snprintf(buf, sizeof(buf), "layout from search: tp %d ep %d pp %d%s", l->tp,
             l->ep, l->pp, l->dp_attention ? " attention DP" : "");
    sn__validate_append(row->assumed, sizeof(row->assumed), buf);
    return true;
}

/* A row measured at a TPOT limit (an slo's TPOT or interactivity) is
 * predicted at the largest batch that meets it, not the largest that
 * fits: bisection on the batch (TPOT grows with it). Said in assumed. */
static int at_slo(const struct sn_model_info *m,
                  const struct sn_train_system *sys, double tpot,
                  struct sn_validate_row *row, struct sn_error *err)
{
    struct sn_infer_layout l = row->ilayout;
    struct sn_infer_result r;
    int lo = 1, hi = row->iresult.max_batch, rc;
    char buf[80];

    if (row->iresult.tpot_s <= tpot || hi < 1)
        return SN_OK;
    while (lo < hi) {
        l.batch = (lo + hi + 1) / 2;
        if ((rc = sn_infer_predict(m, sys, &l, &row->iwork, &r, err)))
            return rc;
        if (r.tpot_s <= tpot)
            lo = l.batch;
        else
            hi = l.batch - 1;
    }
    l.batch = lo;
    if ((rc = sn_infer_predict(m, sys, &l, &row->iwork, &row->iresult, err)))
        return rc;
    row->ilayout = l;
    snprintf(buf, sizeof(buf), "batch %d per replica meets the slo%s", lo,
             row->iresult.tpot_s > tpot ? " (not even batch 1)" : "");
    sn__validate_append(row->assumed, sizeof(row->assumed), buf);
    return SN_OK;
}

/* An output tokens/s per GPU at a per-user speed implies the sequences
 * in flight a GPU: figure / speed. More than fit in the GPU's memory and
 * the figure cannot be output tokens: flagged in assumed (likely input +
 * output, as InferenceMAX's headline). The speed: the slo's, else the
 * prediction's. */
static void consistent(const char *metric, struct sn_validate_row *row,
                       double slo_tpot)
{
    const struct sn_infer_result *r = &row->iresult;
    double per_gpu, user, seqs, fit;
    char buf[sizeof(row->assumed) + 96];
    size_t n;

    if (!strcmp(metric, "output_tokens_per_s_per_gpu"))
        per_gpu = row->measured;
    else if (!strcmp(metric, "output_tokens_per_s"))
        per_gpu = row->measured / row->gpus;
    else
        return;
    user = slo_tpot > 0 ? 1 / slo_tpot : 0;
    if (!(user > 0) || r->gpus < 1)
        return;
    seqs = per_gpu / user;
    fit = (double)r->max_batch / r->gpus;
    if (seqs > fit) {
        /* first, so that it shows whatever else was assumed */
        snprintf(buf, sizeof(buf),
                 "FLAG %.0f seqs/GPU at %.0f tok/s/user, %.0f fit: not "
                 "output tokens alone?; %s",
                 seqs, user, fit, row->assumed);
        n = strlen(buf) < sizeof(row->assumed) ? strlen(buf)
                                               : sizeof(row->assumed) - 1;
        memcpy(row->assumed, buf, n);
        row->assumed[n] = '\0';
    }
}

/* MLPerf Inference's Server scenario latency limits per benchmark, at
 * the P99 the rules judge them (MLPerf Inference rules,
 * inference_policies "Benchmarks": llama2-70b TTFT 2 s and TPOT 200 ms
 * from v4.0; mixtral-8x7b the same from v4.1; llama3.1-405b TTFT 6 s and
 * TPOT 175 ms from v5.0; deepseek-r1 TTFT 2 s and TPOT 80 ms; each as
 * LoadGen reads it, mlcommons/inference loadgen/mlperf.conf,
 * `<model>.Server.ttft_latency` and `tpot_latency` in ms, with
 * `*.Server.target_latency_percentile = 99`). A Server row without an
 * slo of its own is predicted at these. docs/model.md, ledger. */
static const struct {
    const char *model; /* a catalog name's prefix */
    double ttft, tpot;
} mlperf_server[] = {
    {"llama2-70b", 2.0, 0.200},    {"mixtral-8x7b", 2.0, 0.200},
    {"llama3.1-405b", 6.0, 0.175}, {"llama3-405b", 6.0, 0.175},
    {"deepseek-r1", 2.0, 0.080},
};

/* An MLPerf Server row's limits from the rules: true when found. */
static bool mlperf_limits(char **f, double *tpot, double *ttft,
                          struct sn_validate_row *row)
{
    char src[256], mode[32], buf[160];

    sn__validate_lower(f[I_SOURCE], src, sizeof(src));
    sn__validate_lower(f[I_MODE], mode, sizeof(mode));
    if (!strstr(src, "mlperf") || strcmp(mode, "server"))
        return false;
    for (size_t i = 0; i < SN_ARRAY_LEN(mlperf_server); i++) {
        if (strncmp(f[I_MODEL], mlperf_server[i].model,
                    strlen(mlperf_server[i].model)))
            continue;
        *ttft = mlperf_server[i].ttft;
        *tpot = mlperf_server[i].tpot;
        snprintf(buf, sizeof(buf),
                 "MLPerf Server: TTFT %.0f s, TPOT %.0f ms at P99", *ttft,
                 1e3 * *tpot);
        sn__validate_append(row->assumed, sizeof(row->assumed), buf);
        return true;
    }
    return false;
}

/* A prefix-cache hit rate from the notes ("prefix hit 40%"): that share
 * of every prompt is already in the KV cache, so its prefill is skipped
 * (the TTFT and the prefill's share of the replica's time scale by 1 -
 * hit); the KV cache still holds the whole context. */
static void prefix_hit(struct sn_validate_row *row)
{
    struct sn_infer_result *r = &row->iresult;
    char notes[512], buf[96];
    int pct;
    double hit, t, pre;

    sn__validate_lower(row->notes, notes, sizeof(notes));
    pct = sn__validate_tagged(notes, "prefix hit");
    if (pct < 1 || pct > 99 || !r->fits || !(r->output_tps > 0) ||
        !(r->prefill_tps_gpu > 0))
        return;
    hit = pct / 100.0;
    /* the replica's time for a batch: its decode steps and each
     * request's prefill (infer.c's aggregated serving) */
    t = r->batch * row->iwork.osl / r->output_tps;
    pre = r->batch * row->iwork.isl / (r->prefill_tps_gpu * r->gpus);
    r->output_tps = r->batch * row->iwork.osl / (t - hit * pre);
    r->output_tps_gpu = r->output_tps / r->gpus;
    r->ttft_s *= 1 - hit;
    r->prefill_s *= 1 - hit;
    snprintf(buf, sizeof(buf),
             "prefix hit %d%%: that share of prefill "
             "skipped",
             pct);
    sn__validate_append(row->assumed, sizeof(row->assumed), buf);
}

/* A row measured under a TTFT limit (its slo's or MLPerf Server's) and
 * no concurrency: the most Poisson requests/s per replica whose served
 * TTFT and TPOT at the percentile (MLPerf's P99, else P90) meet the limits
 * (bisection on the rate, the batcher's simulation of sn_infer_serve, the
 * batch capped at the one at_slo chose), predicted as served. A prefix
 * hit shortens the simulated prompts by its share. Said in assumed;
 * false when no rate meets them (the idle prediction stands, said). */
static int at_ttft(const struct sn_model_info *m,
                   const struct sn_train_system *sys, double ttft, double tpot,
                   double pct, struct sn_validate_row *row,
                   struct sn_error *err)
{
    struct sn_infer_limits lim = {ttft, tpot};
    struct sn_infer_work w = row->iwork;
    struct sn_infer_load ld = {0};
    struct sn_infer_served sv, best;
    struct sn_infer_result *r = &row->iresult;
    char notes[512], buf[160];
    double lo = 0, hi, hit;
    int rc;

    sn__validate_lower(row->notes, notes, sizeof(notes));
    hit = sn__validate_tagged(notes, "prefix hit") / 100.0;
    if (hit > 0 && hit < 1)
        w.isl = (int)(w.isl * (1 - hit) + 0.5) > 0
                    ? (int)(w.isl * (1 - hit) + 0.5)
                    : 1;
    if (!r->fits || !(r->output_tps > 0))
        return SN_OK;
    /* the replica's capacity at the batch: no rate above it serves */
    hi = r->output_tps / w.osl;
    ld.requests = 2000;
    ld.percentile = pct;
    memset(&best, 0, sizeof(best));
    for (int i = 0; i < 12; i++) {
        ld.rate = 0.5 * (lo + hi);
        if (lo == 0 && i == 0)
            ld.rate = 0.02 * hi; /* a light load first */
        if ((rc = sn_infer_serve(m, sys, &row->ilayout, &w, &ld, &sv, err)))
            return rc;
        if (sn_infer_served_meets(&sv, &lim, NULL, NULL)) {
            lo = ld.rate;
            best = sv;
        } else {
            hi = ld.rate;
            if (i == 0)
                break;
        }
    }
    if (!(lo > 0)) {
        sn__validate_append(row->assumed, sizeof(row->assumed),
                            "TTFT limit not met as served even at a light "
                            "load");
        return SN_OK;
    }
    r->output_tps_gpu = best.output_tps_gpu;
    r->output_tps = best.output_tps_gpu * r->gpus;
    r->ttft_s = best.ttft_at;
    r->tpot_s = best.tpot_at;
    r->output_tps_user = best.tpot_at > 0 ? 1 / best.tpot_at : 0;
    snprintf(buf, sizeof(buf),
             "served at %.3g req/s a replica, the most within the slo "
             "at P%g",
             lo, pct);
    sn__validate_append(row->assumed, sizeof(row->assumed), buf);
    return SN_OK;
}

static void predict(struct owned *own, char **f, int line,
                    struct sn_validate_row *row)
{
    const struct sn_model_info *m;
    struct env_slot *e;
    struct sn_error err;
    char *spec;
    int gpus = 0;
    long v = cell(f[I_NGPUS], 10000000), conc = cell(f[I_CONC], 100000000);
    double pred, slo_tpot = 0, slo_ttft = 0;
    bool search = false, mlperf = false;
    const char *metric;

    row->infer = true;
    row->line = line;
    row->source = f[I_SOURCE];
    row->model = f[I_MODEL];
    row->gpu = f[I_GPU];
    row->metric = f[I_METRIC];
    row->notes = f[I_NOTES];
    if (sn_parse_double(f[I_VALUE], &row->measured, NULL) ||
        !(row->measured > 0)) {
        snprintf(row->reason, sizeof(row->reason),
                 "measured value '%.40s' is not a positive number", f[I_VALUE]);
        return;
    }
    if (v < 1 || conc < 0 ||
        (length_cell(f[I_ISL], "isl", NULL) < 1 &&
         !(mlperf_r1(f) && !f[I_ISL][0]))) {
        snprintf(row->reason, sizeof(row->reason),
                 "n_gpus, isl or concurrency is not a positive number");
        return;
    }
    if (f[I_SLO][0] && !parse_slo(f[I_SLO], &slo_tpot, &slo_ttft)) {
        snprintf(row->reason, sizeof(row->reason),
                 "slo '%.60s': expected terms such as 'tpot<=50ms', "
                 "'ttft<=2s' or 'interactivity>=20' (tokens/s per user)",
                 f[I_SLO]);
        return;
    }
    if (!f[I_SLO][0])
        mlperf = mlperf_limits(f, &slo_tpot, &slo_ttft, row);
    gpus = row->gpus = (int)v;
    if (!(m = row_model(f, row)) || !row_layout(f, &gpus, &search, row))
        return;
    row->moe = m->experts > 1;
    sn_train_params(m, &row->active_params);
    if (m->active_params > 0)
        row->active_params = m->active_params;
    row_work(f, row);
    metric = row_metric(f, row);
    spec = sn_validate_system_spec(f[I_GPU], "", gpus < 8 ? 8 : gpus,
                                   row->system, sizeof(row->system));
    if (!spec) {
        snprintf(row->reason, sizeof(row->reason),
                 "no built-in system for gpu '%.60s': add the accelerator "
                 "to the catalog and its server to validate's systems",
                 f[I_GPU]);
        row->unknown = true;
        return;
    }
    e = sn__validate_env(own, spec);
    if (e->rc) {
        snprintf(row->reason, sizeof(row->reason), "system %.40s: %.200s",
                 row->system, e->msg);
        return;
    }
    snprintf(row->accel, sizeof(row->accel), "%s", e->spec.accel->name);
    if (search && !search_layout(m, &e->env.sys, gpus, metric, row))
        return;
    if (!search)
        row_redundant(m, row);
    if (row->ilayout.ep > 1 && row->ilayout.redundant == 0 &&
        eplb(f[I_NOTES])) {
        row->ilayout.eplb = true;
        sn__validate_append(row->assumed, sizeof(row->assumed),
                            "notes say EPLB: experts placed by load");
    }
    if (conc > 0) /* requests in flight, spread over the replicas */
        row->ilayout.batch =
            (int)((conc * row->ilayout.tp * row->ilayout.pp + gpus - 1) / gpus);
    if (sn_infer_predict(m, &e->env.sys, &row->ilayout, &row->iwork,
                         &row->iresult, &err)) {
        snprintf(row->reason, sizeof(row->reason), "%.250s", err.msg);
        return;
    }
    if (conc == 0 && slo_tpot > 0 &&
        at_slo(m, &e->env.sys, slo_tpot, row, &err)) {
        snprintf(row->reason, sizeof(row->reason), "%.250s", err.msg);
        return;
    }
    if (conc == 0 && slo_ttft > 0) {
        if (at_ttft(m, &e->env.sys, slo_ttft, slo_tpot, mlperf ? 99 : 90, row,
                    &err)) {
            snprintf(row->reason, sizeof(row->reason), "%.250s", err.msg);
            return;
        }
    } else {
        prefix_hit(row);
        if (slo_ttft > 0 && row->iresult.ttft_s > slo_ttft)
            sn__validate_append(row->assumed, sizeof(row->assumed),
                                "TTFT limit not met by one idle prompt");
    }
    if (!metric_of(metric, &row->iresult, &row->iwork,
                   gpus / (row->ilayout.tp * row->ilayout.pp), &pred)) {
        snprintf(row->reason, sizeof(row->reason),
                 "metric '%.60s' is not predicted (output or total (input + "
                 "output), prefill or decode tokens/s, per GPU or per user; "
                 "ttft_s, tpot_ms)",
                 f[I_METRIC]);
        return;
    }
    consistent(metric, row, slo_tpot);
    row->predicted = pred;
    row->error_pct = (pred - row->measured) / row->measured * 100;
    row->lower_better =
        !strcmp(f[I_METRIC], "ttft_s") || !strcmp(f[I_METRIC], "tpot_ms");
    row->predicted_ok = true;
}

int sn__validate_infer(struct owned *own, const char *file,
                       struct sn_validate_report *rep, struct sn_error *err)
{
    int col[I_COUNT];
    static char empty[] = "";

    for (int c = 0; c < I_COUNT; c++) {
        col[c] = sn_csv_column(&own->csv, icol_names[c]);
        if (col[c] < 0 && icol_required[c])
            return sn_error_at(err, SN_EINPUT, file, own->csv.lines[0], 0,
                               "the header has no '%s' column (expected the "
                               "columns of inference-public.csv)",
                               icol_names[c]);
    }
    rep->nrows = own->csv.nrows - 1;
    rep->rows = sn_xcalloc(rep->nrows ? rep->nrows : 1, sizeof(*rep->rows));
    for (size_t i = 1; i < own->csv.nrows; i++) {
        char *f[I_COUNT];
        for (int c = 0; c < I_COUNT; c++)
            f[c] = col[c] >= 0 && (size_t)col[c] < own->csv.nfields[i]
                       ? own->csv.fields[i][col[c]]
                       : empty;
        predict(own, f, own->csv.lines[i], &rep->rows[i - 1]);
    }
    return SN_OK;
}

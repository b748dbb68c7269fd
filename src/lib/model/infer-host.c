/* infer-host.c: the serving runtime's host side: its name, the class of
 * the host CPU, and the host time of one iteration (the scheduler, input
 * preparation, sampling and request bookkeeping on the CPU), which grows
 * with the requests a rank holds. A step takes max(GPU, host): the
 * runtimes overlap the host's next iteration with the GPU's current one
 * (TensorRT-LLM's overlap scheduler, SGLang's zero-overhead scheduler,
 * vLLM V1's async scheduling), so the host shows only above the GPU.
 * docs/model.md ("Host time") has the sources. */
#include <math.h>
#include <string.h>

#include "infer-int.h"
#include "train-int.h"

/* Host seconds per active request per iteration, by runtime and CPU.
 *
 * TensorRT-LLM on Grace: PR #10273 (GB200, GPT-OSS-120B, attention DP 2)
 * measures a host step of about 45 ms at about 1,536 requests per rank:
 * 45e-3 / 1536 = 29.3 us a request [V: the PR's figures; the cost taken
 * proportional to the requests, no fixed part, D].
 * TensorRT-LLM on x86: issue #13957 (B200 on x86, Llama 3.1 8B FP8)
 * measures about 580 us of exposed host time per iteration at 64
 * requests: 9.06 us a request [V, same form].
 * vLLM and SGLang: no per-request figure was found published; their
 * scheduler loops are Python like TensorRT-LLM's PyTorch executor, and
 * vLLM's V1 blog (2025-01) names the same per-step CPU work (scheduling,
 * input preparation, detokenisation) as the bound of small models on
 * H100. They take TensorRT-LLM's figures [E] until `bench` measures
 * them on the user's nodes. */
static const double per_request[SN_INFER_RUNTIME_COUNT][SN_INFER_CPU_COUNT] = {
    [SN_INFER_TRTLLM] =
        {[SN_INFER_CPU_X86] = 580e-6 / 64, [SN_INFER_CPU_GRACE] = 45e-3 / 1536},
    [SN_INFER_VLLM] =
        {[SN_INFER_CPU_X86] = 580e-6 / 64, [SN_INFER_CPU_GRACE] = 45e-3 / 1536},
    [SN_INFER_SGLANG] =
        {[SN_INFER_CPU_X86] = 580e-6 / 64, [SN_INFER_CPU_GRACE] = 45e-3 / 1536},
};

static const char *const runtime_names[SN_INFER_RUNTIME_COUNT] = {
    "trtllm", "vllm", "sglang"};
static const char *const cpu_names[SN_INFER_CPU_COUNT] = {"auto", "x86",
                                                          "grace"};

const char *sn_infer_runtime_name(enum sn_infer_runtime r)
{
    return r >= 0 && r < SN_INFER_RUNTIME_COUNT ? runtime_names[r] : "?";
}

int sn_infer_runtime_parse(const char *s, enum sn_infer_runtime *r)
{
    if (!s)
        return SN_EINPUT;
    if (sn_strcaseeq(s, "tensorrt-llm") || sn_strcaseeq(s, "tensorrt_llm")) {
        *r = SN_INFER_TRTLLM;
        return SN_OK;
    }
    for (int i = 0; i < SN_INFER_RUNTIME_COUNT; i++)
        if (sn_strcaseeq(s, runtime_names[i])) {
            *r = (enum sn_infer_runtime)i;
            return SN_OK;
        }
    return SN_EINPUT;
}

const char *sn_infer_cpu_name(enum sn_infer_cpu c)
{
    return c >= 0 && c < SN_INFER_CPU_COUNT ? cpu_names[c] : "?";
}

int sn_infer_cpu_parse(const char *s, enum sn_infer_cpu *c)
{
    for (int i = 0; s && i < SN_INFER_CPU_COUNT; i++)
        if (sn_strcaseeq(s, cpu_names[i])) {
            *c = (enum sn_infer_cpu)i;
            return SN_OK;
        }
    return SN_EINPUT;
}

enum sn_infer_cpu sn_infer_cpu_of(const char *accel)
{
    const struct sn_accel_info *a =
        accel ? sn_catalog_accel(sn_catalog_builtin(), accel) : NULL;

    /* the catalog names the host link of the accelerators a Grace CPU
     * drives (GH200, GB200, GB300: NVLink-C2C) */
    if (a && a->host_link && !strcmp(a->host_link, "NVLink-C2C"))
        return SN_INFER_CPU_GRACE;
    return SN_INFER_CPU_X86;
}

double sn_infer_host_step(enum sn_infer_runtime r, enum sn_infer_cpu c,
                          double requests)
{
    if (r < 0 || r >= SN_INFER_RUNTIME_COUNT)
        r = SN_INFER_TRTLLM;
    if (c <= SN_INFER_CPU_AUTO || c >= SN_INFER_CPU_COUNT)
        c = SN_INFER_CPU_X86;
    return requests > 0 ? requests * per_request[r][c] : 0;
}

int sn__infer_check_work(const struct sn_infer_work *w, struct sn_error *err)
{
    if (w->mtp > 0 && !(w->accept > 0 && w->accept <= 1))
        return sn_error_set(err, SN_EINPUT,
                            "%d drafted tokens need their acceptance rate "
                            "(0 < accept <= 1; natural text accepts more "
                            "than random benchmark prompts)",
                            w->mtp);
    if (w->runtime < 0 || w->runtime >= SN_INFER_RUNTIME_COUNT || w->cpu < 0 ||
        w->cpu >= SN_INFER_CPU_COUNT)
        return sn_error_set(err, SN_EINPUT, "unknown runtime or host CPU");
    return SN_OK;
}

double sn__infer_host(const struct sn_train_system *sys,
                      const struct sn_infer_layout *l,
                      const struct sn_infer_work *w, double batch)
{
    enum sn_infer_cpu cpu =
        w->cpu != SN_INFER_CPU_AUTO ? w->cpu : sn_infer_cpu_of(sys->accel);
    double ranks = l->dp_attention ? l->tp : 1;

    return sn_infer_host_step(w->runtime, cpu, ceil(batch / ranks));
}

/* A step that carries a prompt runs eager: TensorRT-LLM's PyTorch
 * backend captures CUDA graphs of generation-only batches and runs
 * context steps eagerly unless the opt-in piecewise prefill graphs are
 * set (TensorRT-LLM docs, "Torch Compile & Prefill CUDA Graph": they
 * exist "to reduce context-phase launch overhead"); SGLang captures
 * decode batches only (its CUDA graph docs: extend batches run eager);
 * vLLM V1 runs mixed batches as piecewise graphs, attention eager
 * between graph pieces (vLLM docs, design/cuda_graphs: FULL_AND_PIECEWISE
 * by default, non-uniform batches piecewise) [V]. The host launches each
 * kernel at the training model's measured cost of one eager launch,
 * Python and C++ dispatch plus cudaLaunchKernel (software.c: 13.48 us
 * on x86, 37.08 us on Grace, TransformerEngine issue #2053) [M]. Under
 * the overlap scheduler the launches queue ahead of the GPU, so they
 * show only where the host's whole step exceeds the GPU's. */
double sn__infer_host_eager(const struct sn_train_system *sys,
                            const struct sn_infer_work *w,
                            const struct sn__infer_launches *n)
{
    enum sn_infer_cpu cpu =
        w->cpu != SN_INFER_CPU_AUTO ? w->cpu : sn_infer_cpu_of(sys->accel);
    double launches = n->all;

    if (w->runtime == SN_INFER_VLLM)
        /* an attention op a layer and a graph replay either side */
        launches = fmin(n->all, 2 * n->layers + 1);
    return launches * sn__host_launch_s(cpu == SN_INFER_CPU_GRACE);
}

/* software.c: the training software stacks as named profiles (the
 * sn_train_opts features each runs, with its source), the spec's
 * `software:` section, and the host CPU class of a node with its cost per
 * kernel launch. docs/model.md ("Software profiles", "Host time"). */
#include <stdio.h>
#include <string.h>

#include "train-int.h"

/* CPU seconds of one eager kernel launch: PyTorch's Python and C++
 * dispatch plus cudaLaunchKernel, measured as the host time of one
 * torch.nn.Linear forward (a single cuBLAS GEMM, TransformerEngine issue
 * #761) in TransformerEngine issue #2053 (BF16, hidden 2048, 8192
 * tokens): 13.48 us on a DGX H100 (Xeon Platinum 8480C), 37.08 us on
 * GB200 (Grace) [M]. `bench` re-measures it on a user's nodes. */
#define HOST_LAUNCH_X86 13.48e-6
#define HOST_LAUNCH_GRACE 37.08e-6

/* The router's kernels per MoE layer forward in Megatron-Core before and
 * after TE PR 1883's fusion (72 -> 31), and with DeepEP's fused
 * preprocess for router and preprocess together (17): Megatron-LM
 * docs/discussions/deepseek-v3-gb200-optimization, sections 2.1.4 and
 * 2.2.1 [M]. */
#define ROUTER_UNFUSED 72
#define ROUTER_DEEPEP 17

/* DeepSpeed's stage3_prefetch_bucket_size default, 5e7 parameters
 * (DeepSpeed configuration docs, "ZeRO optimizations": the maximum
 * number of parameter elements to fetch ahead of use) [V]. */
#define DS_PREFETCH 5e7

/* The features every Megatron-Core stack since 0.x runs: fused
 * attention, the distributed optimizer's overlapped reduce and gather,
 * TE's TP communication overlap, overlapped pipeline send/recv; the
 * dropless dispatch's tokens-per-expert sync; and TransformerEngine's
 * modules for every Linear, the attention core and the experts'
 * GroupedLinear (Megatron-Core's transformer_engine layer spec, the
 * default; the GB200 guide's "MXFP8 Grouped GEMM, implemented using
 * multi-stream + cuBLAS"). */
#define MCORE_COMMON                                                           \
    .flash_attention = true, .overlap_grad_reduce = true,                      \
    .overlap_param_gather = true, .overlap_tp = true, .overlap_p2p = true,     \
    .moe_sync = true, .te_modules = true

static const struct sn_train_software profiles[] = {
    {
        .name = "megatron-core",
        .display = "Megatron-Core, current recipes (EP and TP overlap, "
                   "DeepEP/HybridEP dispatch, partial CUDA graphs)",
        .source =
            "Megatron-LM docs/discussions/deepseek-v3-gb200-optimization "
            "(flex dispatcher with DeepEP/HybridEP, --cuda-graph-scope attn "
            "moe_router moe_preprocess, router fusion, the tokens-per-expert "
            "device-host sync that remains); Megatron-Core MoE README "
            "(overlap_moe_expert_parallel_comm); --tp-comm-overlap, "
            "--overlap-grad-reduce, --overlap-param-gather",
        .opts = {MCORE_COMMON, .overlap_ep = true, .ep_dedup = true,
                 .graphs = SN_GRAPHS_PARTIAL, .router_kernels = ROUTER_DEEPEP,
                 .software = "megatron-core"},
        .etp_default = 0, /* megatron/training/arguments.py: ETP = TP */
    },
    {
        .name = "megatron-core-baseline",
        .display = "Megatron-Core 0.13 / TE 2.3 (NCCL all-to-all "
                   "dispatcher, unfused router, no CUDA graphs)",
        .source = "Megatron-LM docs/discussions/deepseek-v3-gb200-"
                  "optimization section 1 (the 494 TFLOP/s baseline: "
                  "--moe-token-dispatcher-type alltoall, router of 72 "
                  "kernels, no CUDA graphs, no EP overlap listed)",
        .opts = {MCORE_COMMON, .graphs = SN_GRAPHS_NONE,
                 .router_kernels = ROUTER_UNFUSED,
                 .software = "megatron-core-baseline"},
        .etp_default = 0,
    },
    {
        .name = "megatron-bridge",
        .display = "Megatron-Bridge performance recipes (Megatron-Core "
                   "underneath, expert TP 1)",
        .source = "NVIDIA-NeMo/Megatron-Bridge src/megatron/bridge/recipes "
                  "(deepseek, qwen3, gpt-oss: expert_tensor_parallel_size = "
                  "1; the Megatron-Core features above)",
        .opts = {MCORE_COMMON, .overlap_ep = true, .ep_dedup = true,
                 .graphs = SN_GRAPHS_PARTIAL, .router_kernels = ROUTER_DEEPEP,
                 .software = "megatron-bridge"},
        .etp_default = 1,
    },
    {
        .name = "nemo",
        .display = "NeMo 2 performance recipes (Megatron-Core underneath, "
                   "expert TP 1)",
        .source = "NVIDIA NeMo docs performance_summary.md and "
                  "scripts/performance recipes (run on Megatron-Core; MoE "
                  "recipes set expert_tensor_parallel_size = 1)",
        .opts = {MCORE_COMMON, .overlap_ep = true, .ep_dedup = true,
                 .graphs = SN_GRAPHS_PARTIAL, .router_kernels = ROUTER_DEEPEP,
                 .software = "nemo"},
        .etp_default = 1,
    },
    {
        .name = "torchtitan",
        .display = "torchtitan (FSDP2, eager, NCCL all-to-all)",
        .source = "pytorch/torchtitan docs: FSDP2 prefetches the next "
                  "layer's all-gather and overlaps the reduce-scatter; async "
                  "TP off by default (enable_async_tensor_parallel); MoE "
                  "all_to_all_single with split sizes read on the host; no "
                  "CUDA graphs in training",
        .opts = {.flash_attention = true,
                 .overlap_grad_reduce = true,
                 .overlap_param_gather = true,
                 .moe_sync = true,
                 .software = "torchtitan"},
        .etp_default = 1, /* torchtitan's MoE: experts whole on a rank */
    },
    {
        .name = "deepspeed",
        .display = "DeepSpeed ZeRO-3 as in 2021 (gathers prefetched only "
                   "within stage3_prefetch_bucket_size)",
        .source = "DeepSpeed configuration docs (overlap_comm; "
                  "stage3_prefetch_bucket_size 5e7); Rajbhandari et al. "
                  "SC'21 ZeRO-Infinity; 2021: no fused attention; "
                  "DeepSpeed-MoE pads to capacity (sharded_moe.py), so no "
                  "host sync",
        .opts = {.overlap_grad_reduce = true,
                 .overlap_param_gather = true,
                 .zero3_prefetch = DS_PREFETCH,
                 .zero3_per_tensor = true,
                 .software = "deepspeed"},
        .etp_default = 0,
    },
    {
        .name = "mindspeed",
        .display = "MindSpeed on Ascend (MC2 TP overlap, all-to-all "
                   "overlap, no graphs)",
        .source = "Ascend/MindSpeed README feature list (--use-ascend-mc2, "
                  "--moe-alltoall-overlap-comm, fused attention, "
                  "distributed optimizer overlap) [U]",
        .opts = {.flash_attention = true,
                 .overlap_grad_reduce = true,
                 .overlap_param_gather = true,
                 .overlap_tp = true,
                 .overlap_ep = true,
                 .moe_sync = true,
                 .software = "mindspeed"},
        .etp_default = 0,
    },
    {
        .name = "megatron-lm-2022",
        .display = "Megatron-LM as Korthikanti et al. ran it (no fused "
                   "attention, no overlap)",
        .source = "Korthikanti et al. 2022; Narayanan et al. SC'21 "
                  "(sn_train_opts_legacy)",
        .opts = {.dropout = true,
                 .moe_sync = true,
                 .software = "megatron-lm-2022"},
        .etp_default = 0,
    },
    {
        .name = "plain",
        .display = "plain eager PyTorch (DDP/FSDP, no comm overlap but "
                   "DDP's, NCCL all-to-all, no CUDA graphs)",
        .source = "PyTorch DDP docs (bucketed all-reduce overlaps the "
                  "backward); SDPA fused attention; the unfused router "
                  "count of the Megatron-LM GB200 guide",
        .opts = {.flash_attention = true,
                 .overlap_grad_reduce = true,
                 .moe_sync = true,
                 .router_kernels = ROUTER_UNFUSED,
                 .software = "plain"},
        .etp_default = 0,
    },
};

#define NPROFILES (sizeof(profiles) / sizeof(profiles[0]))

const struct sn_train_software *sn_train_software_list(size_t *n)
{
    *n = NPROFILES;
    return profiles;
}

static const struct sn_train_software *lookup(const char *name)
{
    for (size_t i = 0; i < NPROFILES; i++)
        if (!strcmp(profiles[i].name, name))
            return &profiles[i];
    return NULL;
}

static void choices(char *buf, size_t size)
{
    size_t off = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < NPROFILES && off < size; i++)
        off += (size_t)snprintf(buf + off, size - off, "%s%s", i ? ", " : "",
                                profiles[i].name);
}

/* "unknown software 'x' (did you mean 'y'? / expected one of ...)" */
static void unknown_msg(const char *name, char *msg, size_t size)
{
    const char *names[NPROFILES + 1];
    const char *near;
    char list[512];

    for (size_t i = 0; i < NPROFILES; i++)
        names[i] = profiles[i].name;
    names[NPROFILES] = NULL;
    near = sn_suggest(name, names);
    choices(list, sizeof(list));
    if (near)
        snprintf(msg, size, "unknown software '%.64s' (did you mean '%s'?)",
                 name, near);
    else
        snprintf(msg, size, "unknown software '%.64s' (expected one of %s)",
                 name, list);
}

int sn_train_software_find(const char *name,
                           const struct sn_train_software **out,
                           struct sn_error *err)
{
    char msg[700];

    *out = lookup(name);
    if (*out)
        return SN_OK;
    unknown_msg(name, msg, sizeof(msg));
    return sn_error_set(err, SN_EINPUT, "%s", msg);
}

const struct sn_train_software *sn_train_software_best(void)
{
    return &profiles[0];
}

const struct sn_train_software *sn_train_software_plain(void)
{
    return lookup("plain");
}

void sn_train_software_apply(const struct sn_train_software *s,
                             struct sn_train_opts *o)
{
    bool dropout = o->dropout;
    double cap = o->moe_capacity;

    *o = s->opts;
    o->dropout = dropout;
    o->moe_capacity = cap;
}

const struct sn_train_software *sn_train_software_guess(const char *text)
{
    /* the most specific names first: Megatron-DeepSpeed before
     * DeepSpeed, Megatron-Bridge (whose rows may also say NeMo) before
     * NeMo */
    static const struct {
        const char *word, *profile;
    } words[] = {
        /* Megatron-LM's model code on DeepSpeed's pipeline engine,
         * which reduces the gradients after the last micro-batch
         * (deepspeed/runtime/pipe/engine.py, ReduceGrads): the 2022
         * Megatron-LM features, no overlap */
        {"megatron-deepspeed", "megatron-lm-2022"},
        {"deepspeed", "deepspeed"},
        {"torchtitan", "torchtitan"},
        {"megatron-bridge", "megatron-bridge"},
        {"megatron bridge", "megatron-bridge"},
        {"mindspeed", "mindspeed"},
        {"nemo", "nemo"},
        {"megatron-core", "megatron-core"},
        {"mcore", "megatron-core"},
    };

    if (!text)
        return NULL;
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
        if (strstr(text, words[i].word))
            return lookup(words[i].profile);
    return NULL;
}

static int fail_at(struct sn_error *err, const char *file,
                   const struct sn_yaml *n, const char *msg)
{
    return sn_error_at(err, SN_EINPUT, file, n->line, n->col, "%s", msg);
}

static int get_bool(const char *file, const struct sn_yaml *v, const char *key,
                    bool *out, struct sn_error *err)
{
    char msg[200];

    if (v->type == SN_YAML_SCALAR && !strcmp(v->value, "true")) {
        *out = true;
        return SN_OK;
    }
    if (v->type == SN_YAML_SCALAR && !strcmp(v->value, "false")) {
        *out = false;
        return SN_OK;
    }
    snprintf(msg, sizeof(msg), "software.%s: '%.64s' (expected true or false)",
             key, v->type == SN_YAML_SCALAR ? v->value : "?");
    return fail_at(err, file, v, msg);
}

static int get_num(const char *file, const struct sn_yaml *v, const char *key,
                   double lo, double hi, double *out, struct sn_error *err)
{
    char msg[200];
    double x;

    if (v->type != SN_YAML_SCALAR || sn_parse_double(v->value, &x, NULL) ||
        !(x >= lo && x <= hi)) {
        snprintf(msg, sizeof(msg),
                 "software.%s: '%.64s' (expected a number from %g to %g)", key,
                 v->type == SN_YAML_SCALAR ? v->value : "?", lo, hi);
        return fail_at(err, file, v, msg);
    }
    *out = x;
    return SN_OK;
}

/* One override key of the section into o. */
static int override(const char *file, const struct sn_yaml *k,
                    const struct sn_yaml *v, struct sn_train_opts *o,
                    struct sn_error *err)
{
    static const char *const keys[] = {
        "profile",        "cuda_graphs", "ep_dedup",       "moe_sync",
        "router_kernels", "te_modules",  "zero3_prefetch", NULL,
    };
    const char *key = k->value;
    char msg[300];
    double x;
    int rc;

    if (!strcmp(key, "cuda_graphs")) {
        if (v->type == SN_YAML_SCALAR && !strcmp(v->value, "none"))
            o->graphs = SN_GRAPHS_NONE;
        else if (v->type == SN_YAML_SCALAR && !strcmp(v->value, "partial"))
            o->graphs = SN_GRAPHS_PARTIAL;
        else {
            snprintf(msg, sizeof(msg),
                     "software.cuda_graphs: '%.64s' (expected none or "
                     "partial)",
                     v->type == SN_YAML_SCALAR ? v->value : "?");
            return fail_at(err, file, v, msg);
        }
        return SN_OK;
    }
    if (!strcmp(key, "ep_dedup"))
        return get_bool(file, v, key, &o->ep_dedup, err);
    if (!strcmp(key, "moe_sync"))
        return get_bool(file, v, key, &o->moe_sync, err);
    if (!strcmp(key, "te_modules"))
        return get_bool(file, v, key, &o->te_modules, err);
    if (!strcmp(key, "router_kernels")) {
        rc = get_num(file, v, key, 0, 10000, &x, err);
        if (!rc && x != (int)x) {
            snprintf(msg, sizeof(msg),
                     "software.router_kernels: '%.64s' (expected a whole "
                     "number)",
                     v->value);
            return fail_at(err, file, v, msg);
        }
        if (!rc)
            o->router_kernels = (int)x;
        return rc;
    }
    if (!strcmp(key, "zero3_prefetch"))
        return get_num(file, v, key, 0, 1e15, &o->zero3_prefetch, err);
    {
        const char *near = sn_suggest(key, keys);
        snprintf(msg, sizeof(msg),
                 "unknown key 'software.%.64s'%s%s%s (expected profile, "
                 "cuda_graphs, ep_dedup, moe_sync, router_kernels, "
                 "te_modules or zero3_prefetch)",
                 key, near ? " (did you mean '" : "", near ? near : "",
                 near ? "'?)" : "");
        return fail_at(err, file, k, msg);
    }
}

int sn_train_software_parse(const char *file, const struct sn_yaml *sec,
                            const struct sn_train_software **out,
                            struct sn_train_opts *o, struct sn_error *err)
{
    const struct sn_yaml *prof;
    char msg[700];
    int rc;

    *out = NULL;
    if (!sec)
        return SN_OK;
    if (sec->type != SN_YAML_MAP)
        return fail_at(err, file, sec,
                       "software is not a mapping (expected keys such as "
                       "profile: megatron-core)");
    prof = sn_yaml_get(sec, "profile");
    if (!prof)
        return fail_at(err, file, sec,
                       "software has no 'profile' (expected a name such as "
                       "megatron-core, deepspeed or plain)");
    if (prof->type != SN_YAML_SCALAR)
        return fail_at(err, file, prof,
                       "software.profile is not a name (expected a name "
                       "such as megatron-core)");
    *out = lookup(prof->value);
    if (!*out) {
        unknown_msg(prof->value, msg, sizeof(msg));
        return fail_at(err, file, prof, msg);
    }
    sn_train_software_apply(*out, o);
    for (size_t i = 0; i < sec->n; i++) {
        if (!strcmp(sec->keys[i]->value, "profile"))
            continue;
        rc = override(file, sec->keys[i], sec->items[i], o, err);
        if (rc) {
            *out = NULL;
            return rc;
        }
    }
    return SN_OK;
}

double sn__host_launch_s(bool grace)
{
    return grace ? HOST_LAUNCH_GRACE : HOST_LAUNCH_X86;
}

const char *sn_train_host_class(const struct sn_accel_info *a, double *launch)
{
    /* the catalog joins Grace to its GPUs by NVLink-C2C (GH200, GB200,
     * GB300: catalog-accels.c); every other node has an x86 host */
    if (a && a->host_link && !strcmp(a->host_link, "NVLink-C2C")) {
        *launch = HOST_LAUNCH_GRACE;
        return "grace";
    }
    *launch = HOST_LAUNCH_X86;
    return "x86";
}

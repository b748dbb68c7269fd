/* coll-ops.c: the collective vocabulary, the one table of operations (our
 * names, nccl-tests' spellings, bus factors, what each op's buffers hold),
 * of element types with their sizes, and of algorithm names, read by the
 * model, bench, diagnose and the CLI.
 * It sits in the model layer, the lowest that knows enum sn_coll_op. */
#include <stdio.h>
#include <string.h>

#include "sn/coll.h"

/* nccl-tests doc/PERFORMANCE.md and src/<op>.cu *GetBw(): the bus factor
 * is bus_scale x (n-1)/n for the ops marked per_rank, bus_scale
 * otherwise. Aliases are nccl-tests' binary stems (all_reduce_perf) and
 * the spellings people write; the parser also ignores '_' and '-'. */
static const struct sn_coll_op_info ops[SN_COLL_OP_COUNT] = {
    [SN_COLL_ALLREDUCE] = {.name = "allreduce",
                           .aliases = {"all_reduce", "all-reduce"},
                           .bus_scale = 2.0,
                           .bus_per_rank = true,
                           .reduces = true},
    [SN_COLL_ALLGATHER] = {.name = "allgather",
                           .aliases = {"all_gather", "all-gather"},
                           .bus_scale = 1.0,
                           .bus_per_rank = true,
                           .parted = true},
    [SN_COLL_REDUCESCATTER] = {.name = "reducescatter",
                               .aliases = {"reduce_scatter", "reduce-scatter"},
                               .bus_scale = 1.0,
                               .bus_per_rank = true,
                               .reduces = true,
                               .parted = true},
    [SN_COLL_ALLTOALL] = {.name = "alltoall",
                          .aliases = {"all_to_all", "all-to-all"},
                          .bus_scale = 1.0,
                          .bus_per_rank = true,
                          .parted = true},
    [SN_COLL_BROADCAST] = {.name = "broadcast",
                           .aliases = {"bcast"},
                           .bus_scale = 1.0,
                           .rooted = true},
    [SN_COLL_REDUCE] = {.name = "reduce",
                        .bus_scale = 1.0,
                        .reduces = true,
                        .rooted = true},
    [SN_COLL_SENDRECV] = {.name = "sendrecv",
                          .aliases = {"send_recv", "send-recv"},
                          .bus_scale = 1.0},
};

static const char *const algo_names[SN_ALGO_COUNT + 1] = {
    "auto", "ring", "tree", "nvls", "hier", "direct", "hier3", NULL};

const struct sn_coll_op_info *sn_coll_op_info(enum sn_coll_op op)
{
    return (unsigned)op < SN_COLL_OP_COUNT ? &ops[op] : NULL;
}

const char *sn_coll_op_name(enum sn_coll_op op)
{
    return (unsigned)op < SN_COLL_OP_COUNT ? ops[op].name : "?";
}

const char *sn_coll_algo_name(enum sn_coll_algo algo)
{
    return (unsigned)algo < SN_ALGO_COUNT ? algo_names[algo] : "?";
}

/* Whether name is op's name or one of its aliases, ignoring case. */
static bool names_op(const struct sn_coll_op_info *o, const char *name)
{
    if (sn_strcaseeq(name, o->name))
        return true;
    for (size_t a = 0; a < SN_ARRAY_LEN(o->aliases) && o->aliases[a]; a++)
        if (sn_strcaseeq(name, o->aliases[a]))
            return true;
    return false;
}

/* src without '_' and '-', cut to fit dst (size bytes, above 0). */
static void flatten(const char *src, char *dst, size_t size)
{
    size_t k = 0;

    for (const char *p = src; *p && k < size - 1; p++)
        if (*p != '_' && *p != '-')
            dst[k++] = *p;
    dst[k] = '\0';
}

int sn_coll_op_parse(const char *name, enum sn_coll_op *out,
                     struct sn_error *err)
{
    char flat[32], alias[32];

    flatten(name, flat, sizeof(flat));
    for (int i = 0; i < SN_COLL_OP_COUNT; i++) {
        const struct sn_coll_op_info *o = &ops[i];
        bool hit = names_op(o, name) || names_op(o, flat);
        /* nccl-tests' binary names: all_reduce, reduce_scatter, ... */
        for (size_t a = 0;
             !hit && a < SN_ARRAY_LEN(o->aliases) && o->aliases[a]; a++) {
            flatten(o->aliases[a], alias, sizeof(alias));
            hit = sn_strcaseeq(flat, alias);
        }
        if (hit) {
            *out = (enum sn_coll_op)i;
            return SN_OK;
        }
    }
    /* name is the rows' first member */
    return sn_unknown_name(err, "collective", name, &ops[0].name,
                           SN_COLL_OP_COUNT, sizeof(ops[0]));
}

int sn_coll_algo_parse(const char *name, enum sn_coll_algo *out,
                       struct sn_error *err)
{
    for (int i = 0; i < SN_ALGO_COUNT; i++) {
        if (sn_strcaseeq(name, algo_names[i])) {
            *out = (enum sn_coll_algo)i;
            return SN_OK;
        }
    }
    return sn_unknown_name(err, "algorithm", name, algo_names, SN_ALGO_COUNT,
                           sizeof(algo_names[0]));
}

double sn_coll_bus_factor(enum sn_coll_op op, uint32_t n)
{
    const struct sn_coll_op_info *o = sn_coll_op_info(op);

    /* nccl-tests doc/PERFORMANCE.md: 2(n-1)/n for allreduce, (n-1)/n for
     * allgather, reducescatter and alltoall, 1 for the rest */
    if (!o || n == 0)
        return 0;
    if (o->bus_per_rank)
        return o->bus_scale * (n - 1) / n;
    return o->bus_scale;
}

double sn_coll_algbw(double bytes, double time)
{
    /* nccl-tests: algbw = size / time */
    return time > 0 ? bytes / time : 0;
}

double sn_coll_busbw(enum sn_coll_op op, uint32_t n, double bytes, double time)
{
    /* nccl-tests: busbw = algbw x the op's bus factor */
    return sn_coll_algbw(bytes, time) * sn_coll_bus_factor(op, n);
}

/* ---- element types ------------------------------------------------------- */

/* nccl-tests' names (src/common.cu test_typenames, with fp8 spelt as
 * supernode has printed it), the short names people write and bench's
 * (bench.h), and the sizes of ncclDataType_t. */
static const struct {
    const char *name;
    const char *aliases[3];
    size_t size;
} dtypes[SN_COLL_DTYPE_COUNT] = {
    [SN_COLL_INT8] = {"int8", {"i8"}, 1},
    [SN_COLL_UINT8] = {"uint8", {"u8"}, 1},
    [SN_COLL_INT32] = {"int32", {"i32", "int"}, 4},
    [SN_COLL_UINT32] = {"uint32", {"u32"}, 4},
    [SN_COLL_INT64] = {"int64", {"i64"}, 8},
    [SN_COLL_UINT64] = {"uint64", {"u64"}, 8},
    [SN_COLL_HALF] = {"half", {"fp16"}, 2},
    [SN_COLL_FLOAT] = {"float", {"fp32"}, 4},
    [SN_COLL_DOUBLE] = {"double", {"fp64"}, 8},
    [SN_COLL_BFLOAT16] = {"bfloat16", {"bf16"}, 2},
    [SN_COLL_FP8E4M3] = {"fp8e4m3", {"e4m3", "fp8_e4m3", "fp8"}, 1},
    [SN_COLL_FP8E5M2] = {"fp8e5m2", {"e5m2", "fp8_e5m2"}, 1},
};

const char *sn_coll_dtype_name(enum sn_coll_dtype d)
{
    return (unsigned)d < SN_COLL_DTYPE_COUNT ? dtypes[d].name : "?";
}

size_t sn_coll_dtype_size(enum sn_coll_dtype d)
{
    return (unsigned)d < SN_COLL_DTYPE_COUNT ? dtypes[d].size : 0;
}

int sn_coll_dtype_parse(const char *name, enum sn_coll_dtype *out,
                        struct sn_error *err)
{
    for (int i = 0; i < SN_COLL_DTYPE_COUNT; i++) {
        bool hit = sn_strcaseeq(name, dtypes[i].name);
        for (size_t a = 0; !hit && a < SN_ARRAY_LEN(dtypes[i].aliases) &&
                           dtypes[i].aliases[a];
             a++)
            hit = sn_strcaseeq(name, dtypes[i].aliases[a]);
        if (hit) {
            *out = (enum sn_coll_dtype)i;
            return SN_OK;
        }
    }
    /* name is the rows' first member */
    return sn_unknown_name(err, "data type", name, &dtypes[0].name,
                           SN_COLL_DTYPE_COUNT, sizeof(dtypes[0]));
}

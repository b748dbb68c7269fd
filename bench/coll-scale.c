/* coll-scale.c: how long the collective model takes as the cluster grows.
 * Each mode times one thing in one process, wall and CPU:
 *   coll-scale a2a SPEC [SUPERNODES]  all-to-all over every accelerator
 *                                     through the flow engine (first call)
 *   coll-scale ar RACKS               all-reduce over every accelerator of
 *                                     RACKS GB200 NVL72 racks on a 3-tier
 *                                     rail fat tree (the per-level estimate)
 *   coll-scale sweep SPEC             30 sizes x 7 collectives over every
 *                                     accelerator, from a fresh model
 *   coll-scale grow SPEC SUPERNODES   first and cached calls of all-reduce
 *                                     and all-to-all, engine forced
 * Run by bench/coll-scale.sh. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-common.h"
#include "sn/sn.h"

struct clk {
    double wall, cpu;
};

static struct clk clk_now(void)
{
    struct clk c = {sn_now(), bench_cpu_now()};
    return c;
}

static void clk_print(const char *what, struct clk a, struct clk b)
{
    printf("%s %.6f s wall %.6f s cpu\n", what, b.wall - a.wall, b.cpu - a.cpu);
}

static const char nvl72_fmt[] = BENCH_NVL72_FLEET;

static void die(const char *what, const struct sn_error *err)
{
    fprintf(stderr, "coll-scale: %s: %s\n", what, err->msg);
    exit(3);
}

static void load(const char *path, const char *supernodes, struct sn_spec *spec,
                 struct sn_topo **t)
{
    struct sn_error err;

    if (sn_spec_load(path, spec, &err))
        die("spec", &err);
    if (supernodes && sn_spec_set(spec, "supernodes", supernodes, &err))
        die("--set supernodes", &err);
    if (sn_topo_build(spec, t, &err))
        die("build", &err);
}

static struct sn_coll_model *model(const struct sn_topo *t, bool engine)
{
    struct sn_coll_params p;
    struct sn_coll_model *m = NULL;
    struct sn_error err;

    sn_coll_params_default(t, &p);
    if (sn_coll_params_from_spec(t->spec, &p, &err))
        die("constants", &err);
    if (engine)
        p.flow_max = INFINITY;
    if (sn_coll_model_new_params(t, &p, &m, &err))
        die("model", &err);
    return m;
}

static void predict(struct sn_coll_model *m, enum sn_coll_op op,
                    const struct sn_group *g, double bytes,
                    struct sn_coll_result *r)
{
    struct sn_error err;

    if (sn_coll_predict(m, op, g, bytes, SN_ALGO_AUTO, r, &err))
        die("predict", &err);
}

static int mode_a2a(const char *path, const char *supernodes)
{
    struct sn_spec spec;
    struct sn_topo *t;
    struct sn_coll_model *m;
    struct sn_coll_result r;
    struct sn_group g = {0, 0, 1, NULL};
    struct clk a, b, c;

    load(path, supernodes, &spec, &t);
    g.n = (uint32_t)t->naccel;
    a = clk_now();
    m = model(t, true);
    b = clk_now();
    predict(m, SN_COLL_ALLTOALL, &g, 1 << 30, &r);
    c = clk_now();
    printf("a2a endpoints %zu nodes %zu links %zu\n", t->naccel, t->nnodes,
           t->nlinks);
    clk_print("a2a model", a, b);
    clk_print("a2a first call", b, c);
    printf("a2a 1 GiB busbw %.2f GB/s algo %s bottleneck %s engine %d\n",
           r.busbw / 1e9, sn_coll_algo_name(r.algo),
           sn_link_class_name(r.bottleneck), r.flows);
    sn_coll_model_free(m);
    sn_topo_free(t);
    sn_spec_release(&spec);
    return 0;
}

static int mode_ar(int racks)
{
    struct sn_spec spec;
    struct sn_topo *t;
    struct sn_coll_model *m;
    struct sn_coll_result r;
    struct sn_group g = {0, 0, 1, NULL};
    struct sn_error err;
    struct sn_buf text;
    struct clk a, b, c, d, e;
    int reps = 100000;

    sn_buf_init(&text);
    sn_buf_printf(&text, nvl72_fmt, racks, racks);
    a = clk_now();
    if (sn_spec_parse("nvl72.yaml", text.data, text.len, &spec, &err))
        die("spec", &err);
    if (sn_topo_build(&spec, &t, &err))
        die("build", &err);
    b = clk_now();
    g.n = (uint32_t)t->naccel;
    m = model(t, false);
    c = clk_now();
    predict(m, SN_COLL_ALLREDUCE, &g, 1 << 30, &r);
    d = clk_now();
    for (int i = 0; i < reps; i++)
        predict(m, SN_COLL_ALLREDUCE, &g, (double)(1 << 20) * (i % 64 + 1), &r);
    e = clk_now();
    printf("ar accelerators %zu racks %d links %zu\n", t->naccel, racks,
           t->nlinks);
    clk_print("ar parse+build", a, b);
    clk_print("ar model", b, c);
    clk_print("ar first call", c, d);
    printf("ar cached call %.3f us wall %.3f us cpu (mean of %d)\n",
           (e.wall - d.wall) / reps * 1e6, (e.cpu - d.cpu) / reps * 1e6, reps);
    predict(m, SN_COLL_ALLREDUCE, &g, 1 << 30, &r);
    printf("ar 1 GiB busbw %.2f GB/s algo %s bottleneck %s engine %d\n",
           r.busbw / 1e9, sn_coll_algo_name(r.algo),
           sn_link_class_name(r.bottleneck), r.flows);
    sn_coll_model_free(m);
    sn_topo_free(t);
    sn_spec_release(&spec);
    sn_buf_release(&text);
    return 0;
}

static int mode_sweep(const char *path)
{
    struct sn_spec spec;
    struct sn_topo *t;
    struct sn_coll_model *m;
    struct sn_coll_result r;
    struct sn_group g = {0, 0, 1, NULL};
    struct clk a, b;
    double sum = 0;

    load(path, NULL, &spec, &t);
    g.n = (uint32_t)t->naccel;
    a = clk_now();
    m = model(t, false);
    for (int op = 0; op < SN_COLL_OP_COUNT; op++)
        for (int k = 0; k < 30; k++) {
            predict(m, op, &g, 8.0 * pow(2, k), &r);
            sum += r.time;
        }
    b = clk_now();
    printf("sweep accelerators %zu\n", t->naccel);
    clk_print("sweep model + 210 calls", a, b);
    printf("sweep checksum %.6g s\n", sum);
    sn_coll_model_free(m);
    sn_topo_free(t);
    sn_spec_release(&spec);
    return 0;
}

static int mode_grow(const char *path, const char *supernodes)
{
    struct sn_spec spec;
    struct sn_topo *t;
    struct sn_coll_model *m;
    struct sn_coll_result r;
    struct sn_group g = {0, 0, 1, NULL};
    struct clk a, b, c, d, e;
    int reps = 10000;

    load(path, supernodes, &spec, &t);
    g.n = (uint32_t)t->naccel;
    a = clk_now();
    m = model(t, true);
    b = clk_now();
    predict(m, SN_COLL_ALLREDUCE, &g, 1 << 30, &r);
    c = clk_now();
    predict(m, SN_COLL_ALLTOALL, &g, 1 << 30, &r);
    d = clk_now();
    for (int i = 0; i < reps; i++)
        predict(m, i % 2 ? SN_COLL_ALLTOALL : SN_COLL_ALLREDUCE, &g,
                (double)(1 << 20) * (i % 64 + 1), &r);
    e = clk_now();
    printf("grow endpoints %zu links %zu\n", t->naccel, t->nlinks);
    clk_print("grow model", a, b);
    clk_print("grow allreduce first call", b, c);
    clk_print("grow alltoall first call", c, d);
    printf("grow cached call %.3f us cpu (mean of %d)\n",
           (e.cpu - d.cpu) / reps * 1e6, reps);
    sn_coll_model_free(m);
    sn_topo_free(t);
    sn_spec_release(&spec);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "a2a"))
        return mode_a2a(argv[2], argc > 3 ? argv[3] : NULL);
    if (argc == 3 && !strcmp(argv[1], "ar"))
        return mode_ar(atoi(argv[2]));
    if (argc == 3 && !strcmp(argv[1], "sweep"))
        return mode_sweep(argv[2]);
    if (argc == 4 && !strcmp(argv[1], "grow"))
        return mode_grow(argv[2], argv[3]);
    fprintf(stderr, "usage: coll-scale a2a SPEC [SUPERNODES] | ar RACKS | "
                    "sweep SPEC | grow SPEC SUPERNODES\n");
    return 2;
}

/* coll-cases.h: what test-coll.c's cases stand on: predictions that say
 * why they failed, the fat trees and three-level pods of the closed forms,
 * bus bandwidth in GB/s for the published measurements, and a spec's
 * model opened and closed as one. Static helpers for that one file, kept
 * apart so the cases read on their own. */
#ifndef SN_TEST_COLL_CASES_H
#define SN_TEST_COLL_CASES_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "coll-fixtures.h"
#include "sn/spec.h"
#include "sn/topo.h"

#define GiB (1024.0 * 1024.0 * 1024.0)
#define MiB (1024.0 * 1024.0)

static double predict(struct sn_coll_model *m, enum sn_coll_op op,
                      struct sn_group g, double bytes, enum sn_coll_algo a,
                      struct sn_coll_result *r)
{
    struct sn_error err;
    int rc = sn_coll_predict(m, op, &g, bytes, a, r, &err);

    if (rc) {
        printf("  predict: %s\n", err.msg);
        return NAN;
    }
    return r->time;
}

static struct sn_group grp(uint32_t first, uint32_t n, uint32_t stride)
{
    struct sn_group g = {first, n, stride, NULL};
    return g;
}

/* 16 one-GPU servers, 4 per leaf, every leaf with one link to each of
 * `spines` spines: a non-blocking two-tier fat tree with 4, 2:1 with 2. */
static struct sn_topo *fat_tree(uint32_t spines)
{
    struct fx_cluster c;

    memset(&c, 0, sizeof(c));
    c.servers = 16;
    c.gpus = 1;
    c.nics = 1;
    c.nic_bw = 50e9;
    c.net_lat = 0.5e-6;
    c.pcie_bw = 64e9;
    c.hosts_per_leaf = 4;
    c.spines = spines;
    c.uplinks = spines;
    c.uplink_bw = 50e9;
    return fx_build(&c);
}

/* Three-level fixture: 16 servers of 2 GPUs (one scale-up chip, two
 * 100 GB/s links per GPU: 200 GB/s a rank inside its server), one 50 GB/s
 * NIC per GPU on a rail-optimised leaf tier of 4 servers a leaf, so 4
 * pods of 4 domains; every leaf has `uplinks` links to as many spines:
 * 4 is non-blocking, 1 is 4:1. */
static struct sn_topo *pods(uint32_t uplinks)
{
    struct fx_cluster c;

    memset(&c, 0, sizeof(c));
    c.servers = 16;
    c.gpus = 2;
    c.chips = 1;
    c.links_per_gpu = 2;
    c.up_bw = 100e9;
    c.up_lat = 0.25e-6;
    c.nics = 2;
    c.nic_bw = 50e9;
    c.net_lat = 0.5e-6;
    c.pcie_bw = 64e9;
    c.rail = true;
    c.hosts_per_leaf = 4;
    c.spines = uplinks;
    c.uplinks = uplinks;
    c.uplink_bw = 50e9;
    return fx_build(&c);
}

/* Link rates and latencies are floats in the topology, so the closed
 * forms take them as floats too. The wire latency of one step on the
 * pods fixture, as the routes add it: inside a server GPU-chip-GPU; in a pod
 * GPU-NIC-leaf-NIC-GPU; across pods two more hops over a spine. */
#define W_UP (2.0 * (double)0.25e-6f)
#define W_POD (2.0 * (double)1e-7f + 2.0 * (double)0.5e-6f)
#define W_X (2.0 * (double)1e-7f + 4.0 * (double)0.5e-6f)

/* The 32 ranks with the domains in pod order interleaved (domain j of the
 * list is server 4 (j mod 4) + j / 4): every ring edge from one domain to
 * the next crosses the spine. */
static void interleaved(uint32_t *ranks)
{
    for (uint32_t j = 0; j < 16; j++) {
        uint32_t s = 4 * (j % 4) + j / 4;
        ranks[2 * j] = 2 * s;
        ranks[2 * j + 1] = 2 * s + 1;
    }
}

static double busbw_of(struct sn_coll_model *m, enum sn_coll_op op,
                       struct sn_group g, double S, enum sn_coll_algo a)
{
    struct sn_coll_result r;

    predict(m, op, g, S, a, &r);
    return r.busbw / 1e9;
}

struct spec_model {
    struct sn_spec spec;
    struct sn_topo *t;
    struct sn_coll_model *m;
};

static int spec_open(struct spec_model *s, const char *path,
                     struct sn_error *err)
{
    int rc;

    memset(s, 0, sizeof(*s));
    rc = sn_spec_load(path, &s->spec, err);
    if (rc)
        return rc;
    rc = sn_topo_build(&s->spec, &s->t, err);
    if (!rc)
        rc = sn_coll_model_new(s->t, &s->m, err);
    return rc;
}

static void spec_close(struct spec_model *s)
{
    sn_coll_model_free(s->m);
    sn_topo_free(s->t);
    sn_spec_release(&s->spec);
}

#endif

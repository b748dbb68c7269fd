/* coll-algo.c: the collective model's algorithms (ring, tree, NVLS,
 * two- and three-level hierarchical, direct) as alpha-beta sums over the
 * bandwidth of their patterns (coll-pattern.c), and the prediction that
 * picks among them as NCCL's tuner does. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll-int.h"
#include "flow.h"
#include "hmap.h"
#include "sn/coll.h"

/* ---- algorithms ---------------------------------------------------------- */

/* One evaluated candidate. */
struct cand {
    double time, lat;
    int proto;
    int cls;           /* bottleneck class */
    double wire_bytes; /* bytes a rank moves over the bottleneck class */
    bool flows;
};

static double log2c(uint32_t m)
{
    double d = 0;

    while ((1u << (unsigned)d) < m && d < 31)
        d++;
    return d;
}

static double hop(const struct sn_coll_model *m, const struct grp *G, int cls,
                  int p, bool tree)
{
    double h = tree ? m->p.tree_hop[cls][p] : m->p.ring_hop[cls][p];

    /* NCCL: LL's intra-node hop costs 1.8x when the job spans nodes */
    if (p == SN_PROTO_LL && G->m > 1 && cls != SN_LINK_SCALE_OUT)
        h *= m->p.ll_multinode;
    return h;
}

/* One step's latency: NCCL's per-hop figure, measured on short links and
 * so including their wire time; the route's own wire latency when it is
 * larger (long links, or the neutral constants of the closed forms). */
static double step_lat(double hop_lat, double wire)
{
    return hop_lat > wire ? hop_lat : wire;
}

/* Bandwidth share of protocol p on a ring or a tree: NCCL's tuner
 * refinements where set, else the protocol's payload share. */
static double peff(const struct sn_coll_model *m, const struct grp *G,
                   enum sn_coll_op op, bool tree, int p)
{
    double e = 0;

    if (p == SN_PROTO_LL)
        e = tree ? m->p.ll_tree
            : G->m > 1 || op == SN_COLL_ALLREDUCE || op == SN_COLL_REDUCE
                ? m->p.ll_ring
                : m->p.ll_ring_domain;
    else if (p == SN_PROTO_LL128)
        e = tree                      ? (G->m == 1 ? m->p.ll128_tree_domain : 0)
            : (double)G->n / G->m < 2 ? m->p.ll128_ring_alone
                                      : m->p.ll128_ring;
    return e > 0 ? e : m->p.proto_eff[p];
}

static bool nvls_usable(const struct sn_coll_model *m, const struct grp *G)
{
    return m->p.nvls && G->nvls_min > 0 && G->nvls_min >= G->up_min * 0.999;
}

static bool algo_ok(const struct sn_coll_model *m, const struct grp *G,
                    enum sn_coll_op op, enum sn_coll_algo a)
{
    switch (a) {
    case SN_ALGO_RING:
        return op != SN_COLL_ALLTOALL && op != SN_COLL_SENDRECV;
    case SN_ALGO_TREE:
        return op == SN_COLL_ALLREDUCE || op == SN_COLL_BROADCAST ||
               op == SN_COLL_REDUCE;
    case SN_ALGO_NVLS:
        return G->m == 1 && nvls_usable(m, G) &&
               (op == SN_COLL_ALLREDUCE || op == SN_COLL_ALLGATHER ||
                op == SN_COLL_REDUCESCATTER);
    case SN_ALGO_HIER:
        return G->m > 1 && G->regular && G->sib >= 1 &&
               op != SN_COLL_ALLTOALL && op != SN_COLL_SENDRECV;
    case SN_ALGO_DIRECT:
        return op == SN_COLL_ALLTOALL || op == SN_COLL_SENDRECV;
    case SN_ALGO_HIER3:
        return G->porder &&
               (op == SN_COLL_ALLREDUCE || op == SN_COLL_ALLGATHER ||
                op == SN_COLL_REDUCESCATTER);
    default:
        return false;
    }
}

static void cand_pick(struct cand *best, double time, double lat, int p,
                      int cls, double wire_bytes, bool flows)
{
    if (time < best->time) {
        best->time = time;
        best->lat = lat;
        best->proto = p;
        best->cls = cls;
        best->wire_bytes = wire_bytes;
        best->flows = flows;
    }
}

static double share_out(const struct grp *G, int cls)
{
    /* a rank's share of the traffic that crosses domains, for bytes on
     * the NIC of ring and tree: one edge per domain per channel */
    return cls == SN_LINK_SCALE_OUT ? (double)G->m / G->n : 1.0;
}

static int eval_ring(struct sn_coll_model *m, struct grp *G, enum sn_coll_op op,
                     double S, struct cand *best, struct sn_error *err)
{
    const struct patres *R;
    uint32_t n = G->n, mm = G->m;
    double steps, inter, factor;
    int rc = sn__coll_pat_get(m, G, PAT_RING, &R, err);

    if (rc)
        return rc;
    switch (op) {
    case SN_COLL_ALLREDUCE:
        steps = 2.0 * (n - 1);
        inter = 2.0 * (mm - 1);
        factor = 2.0 * (n - 1) / n;
        break;
    case SN_COLL_ALLGATHER:
    case SN_COLL_REDUCESCATTER:
        steps = n - 1;
        inter = mm - 1;
        factor = (double)(n - 1) / n;
        break;
    default: /* broadcast, reduce: a pipelined chain */
        steps = n - 1;
        inter = mm - 1;
        factor = 1;
        break;
    }
    for (int p = 0; p < SN_PROTO_COUNT; p++) {
        double lat, bw, t;
        if (!m->p.proto_on[p])
            continue;
        lat = m->p.ring_base[p] +
              (steps - inter) *
                  step_lat(hop(m, G, G->intra_cls, p, false), R->wire_in) +
              inter * step_lat(hop(m, G, SN_LINK_SCALE_OUT, p, false), R->wire);
        bw = R->bw * peff(m, G, op, false, p);
        if (op == SN_COLL_ALLREDUCE && mm > 1 && p == SN_PROTO_SIMPLE &&
            S >= n / 16.0 * 65536)
            lat *= m->p.ring_plateau;
        if (op == SN_COLL_BROADCAST || op == SN_COLL_REDUCE) {
            /* k chunks through n-1 hops: (k + n - 2) chunk times */
            double k = ceil(S / m->p.chunk), ce;
            if (k < 1)
                k = 1;
            ce = S / k;
            t = lat + (S + (n - 2) * ce) / bw;
        } else {
            t = lat + factor * S / bw;
        }
        cand_pick(best, t, lat, p, R->cls, factor * S * share_out(G, R->cls),
                  R->flows);
    }
    return SN_OK;
}

/* NCCL's tree correction (NVIDIA/nccl src/tuning/cost_model.cc,
 * treeCorrectionFactor, applied in src/tuning/tree.cc to all-reduce):
 * the tree's bandwidth times a factor per power of two of the size, from
 * 64 B (column 0) to 512 MiB (column 23), by protocol LL, LL128, Simple.
 * NCCL's own note: trees do not follow the alpha-beta model at medium
 * sizes, and the static factor "works quite well". */
static double tree_correction(int p, double S)
{
    static const double f[SN_PROTO_COUNT][24] = {
        {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7,  .7,  .7,  .6,  .5,
         .4,  .4,  .5,  .6,  .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
        {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7,  .6,  .6,
         .6,  .6,  .6,  .6,  .8,  .9, .9, .9, .9, 1.0, 1.0, 1.0},
        {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5,
         .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9}};
    double units = floor(S / 64);
    int k;

    /* NCCL's log2i(nBytes >> 6): sizes below 64 B have no column. ilogb
     * is floor(log2) of a positive double, read from its exponent, where
     * halving in a loop cost a third of a cached prediction */
    if (!(units >= 1))
        return 1.0;
    k = ilogb(units);
    return k < 24 ? f[p][k] : 1.0;
}

static int eval_tree(struct sn_coll_model *m, struct grp *G, enum sn_coll_op op,
                     double S, struct cand *best, struct sn_error *err)
{
    const struct patres *R;
    double di = G->gmax - 1, dn = log2c(G->m);
    double phases = op == SN_COLL_ALLREDUCE ? 2 : 1;
    int rc = sn__coll_pat_get(m, G, PAT_RING, &R, err);

    if (rc)
        return rc;
    for (int p = 0; p < SN_PROTO_COUNT; p++) {
        double lat, bw, t;
        if (!m->p.proto_on[p])
            continue;
        lat =
            m->p.tree_base[p] +
            phases *
                (di * step_lat(hop(m, G, G->intra_cls, p, true), R->wire_in) +
                 dn * step_lat(hop(m, G, SN_LINK_SCALE_OUT, p, true), R->wire));
        /* a rank sends S up and S down, over its parent and children */
        bw = R->bw * m->p.tree_eff * peff(m, G, op, true, p);
        if (m->p.tree_correction && op == SN_COLL_ALLREDUCE)
            bw *= tree_correction(p, S);
        t = lat + phases * S / bw;
        cand_pick(best, t, lat, p, R->cls, phases * S * share_out(G, R->cls),
                  R->flows);
    }
    return SN_OK;
}

static int eval_nvls(struct sn_coll_model *m, struct grp *G, enum sn_coll_op op,
                     double S, struct cand *best, struct sn_error *err)
{
    const struct patres *R;
    double n = G->n, bytes, lat, bw;
    int rc = sn__coll_pat_get(m, G, PAT_RING, &R, err);

    if (rc)
        return rc;
    if (!m->p.proto_on[SN_PROTO_SIMPLE])
        return SN_OK;
    /* per direction a rank carries S (reduce) + S/n (multicast) for
     * all-reduce; (n-1)/n S for all-gather or reduce-scatter */
    bytes = op == SN_COLL_ALLREDUCE ? S * (1 + 1 / n) : S * (n - 1) / n;
    bw = G->nvls_min * m->p.nvls_eff;
    lat = step_lat(m->p.nvls_hop, 2 * R->wire_in);
    /* per-rank link capacity, not the flow engine */
    cand_pick(best, lat + bytes / bw, lat, SN_PROTO_SIMPLE, SN_LINK_SCALE_UP,
              bytes, false);
    return SN_OK;
}

/* The intra-domain phase of the hierarchical schemes, once (reduce-scatter
 * or all-gather of S over g ranks): a ring, or NVLS with Simple when the
 * switches reduce. */
static void intra_phase(const struct sn_coll_model *m, const struct grp *G,
                        const struct patres *I, double S, int p, double eff,
                        double *t, double *lat)
{
    double g = G->gmax, bytes = (g - 1) / g * S;

    *t = *lat = 0;
    if (g < 2)
        return;
    *t = bytes / (I->bw * eff);
    *lat = (g - 1) * step_lat(hop(m, G, G->intra_cls, p, false), I->wire);
    if (p == SN_PROTO_SIMPLE && nvls_usable(m, G)) {
        double tv = bytes / (G->nvls_min * m->p.nvls_eff);
        double lv = step_lat(m->p.nvls_hop, 2 * I->wire);
        if (tv + lv < *t + *lat) {
            *t = tv;
            *lat = lv;
        }
    }
}

/* Hierarchical: reduce-scatter (or gather) inside every domain, the
 * inter-domain part on each rail at S/g, then all-gather inside. */
static int eval_hier(struct sn_coll_model *m, struct grp *G, enum sn_coll_op op,
                     double S, struct cand *best, struct sn_error *err)
{
    const struct patres *I = NULL, *L;
    double g = G->gmax, mm = G->m, Sg = S / g;
    int rc;

    if (g > 1) {
        rc = sn__coll_pat_get(m, G, PAT_INTRA, &I, err);
        if (rc)
            return rc;
    }
    rc = sn__coll_pat_get(m, G, PAT_RAIL, &L, err);
    if (rc)
        return rc;
    for (int p = 0; p < SN_PROTO_COUNT; p++) {
        double eff = peff(m, G, op, false, p);
        double ti, li, tn, ln, tt, lt, t, lat, in_bytes = (g - 1) / g * S;
        double bw_time_in = 0, bw_time_net;
        int cls;
        if (!m->p.proto_on[p])
            continue;
        /* one intra phase: ring, or NVLS when the switches reduce */
        intra_phase(m, G, I, S, p, eff, &ti, &li);
        /* the rail part */
        switch (op) {
        case SN_COLL_ALLREDUCE:
            tn = 2 * (mm - 1) / mm * Sg / (L->bw * eff);
            ln = 2 * (mm - 1) *
                 step_lat(hop(m, G, SN_LINK_SCALE_OUT, p, false), L->wire);
            tt = 2 * Sg / (L->bw * m->p.tree_eff * eff);
            lt = 2 * log2c(G->m) *
                 step_lat(hop(m, G, SN_LINK_SCALE_OUT, p, true), L->wire);
            if (tt + lt < tn + ln) {
                tn = tt;
                ln = lt;
            }
            bw_time_in = 2 * ti;
            t = 2 * ti + tn;
            lat = m->p.ring_base[p] + 2 * li + ln;
            break;
        case SN_COLL_ALLGATHER:
        case SN_COLL_REDUCESCATTER:
            tn = (mm - 1) / mm * Sg / (L->bw * eff);
            ln = (mm - 1) *
                 step_lat(hop(m, G, SN_LINK_SCALE_OUT, p, false), L->wire);
            bw_time_in = ti;
            t = ti + tn;
            lat = m->p.ring_base[p] + li + ln;
            break;
        default: {
            /* broadcast and reduce: scatter over the rails, then gather
             * inside; the rail part is a chain of m domains in chunks */
            double k = ceil(Sg / m->p.chunk), ce;
            if (k < 1)
                k = 1;
            ce = Sg / k;
            tn = (Sg + (mm - 2 > 0 ? mm - 2 : 0) * ce) / (L->bw * eff);
            ln = (mm - 1) *
                 step_lat(hop(m, G, SN_LINK_SCALE_OUT, p, false), L->wire);
            bw_time_in = ti;
            t = ti + tn;
            lat = m->p.ring_base[p] + li + ln;
            break;
        }
        }
        bw_time_net = tn;
        cls = bw_time_net >= bw_time_in ? SN_LINK_SCALE_OUT
                                        : (I ? I->cls : G->intra_cls);
        cand_pick(best, t + lat, lat, p, cls,
                  cls == SN_LINK_SCALE_OUT
                      ? (op == SN_COLL_ALLREDUCE ? 2 * (mm - 1) / mm * Sg
                                                 : (mm - 1) / mm * Sg)
                      : (op == SN_COLL_ALLREDUCE ? 2 * in_bytes : in_bytes),
                  L->flows && (!I || I->flows));
    }
    return SN_OK;
}

/* Three-level: reduce-scatter inside every domain (S to S/g), on each
 * rail among the r domains of a pod (S/g to S/(g r)), all-reduce of
 * S/(g r) on each rail across the q pods (ring or tree), then the
 * all-gathers back; all-gather and reduce-scatter take one way. A rank
 * moves the same bytes as in the two-level scheme (both are bandwidth
 * optimal); what differs is where they go: the pod phase stays under the
 * leaves, and only S/(g r) climbs above them, from every rank at once,
 * in 2(r-1) + 2(q-1) steps (or 2 log2 q by tree) instead of 2(m-1). */
static int eval_hier3(struct sn_coll_model *m, struct grp *G,
                      enum sn_coll_op op, double S, struct cand *best,
                      struct sn_error *err)
{
    const struct patres *I = NULL, *P, *X;
    double g = G->gmax, r = G->pod_r, q = (double)G->m / G->pod_r;
    double Sg = S / g, Sgr = Sg / r;
    bool ar = op == SN_COLL_ALLREDUCE;
    int rc;

    if (g > 1) {
        rc = sn__coll_pat_get(m, G, PAT_INTRA, &I, err);
        if (rc)
            return rc;
    }
    rc = sn__coll_pat_get(m, G, PAT_POD, &P, err);
    if (!rc)
        rc = sn__coll_pat_get(m, G, PAT_XPOD, &X, err);
    if (rc)
        return rc;
    for (int p = 0; p < SN_PROTO_COUNT; p++) {
        double eff = peff(m, G, op, false, p);
        double hn = hop(m, G, SN_LINK_SCALE_OUT, p, false);
        double ti, li, tp, lp, tx, lx, xbytes, t_in, t_net, lat;
        int cls;
        if (!m->p.proto_on[p])
            continue;
        intra_phase(m, G, I, S, p, eff, &ti, &li);
        tp = (r - 1) / r * Sg / (P->bw * eff);
        lp = (r - 1) * step_lat(hn, P->wire);
        xbytes = (ar ? 2 : 1) * (q - 1) / q * Sgr;
        tx = xbytes / (X->bw * eff);
        lx = (ar ? 2 : 1) * (q - 1) * step_lat(hn, X->wire);
        if (ar) {
            /* across pods by double binary tree when that is faster */
            double tt = 2 * Sgr / (X->bw * m->p.tree_eff * eff);
            double lt =
                2 * log2c((uint32_t)q) *
                step_lat(hop(m, G, SN_LINK_SCALE_OUT, p, true), X->wire);
            if (tt + lt < tx + lx) {
                tx = tt;
                lx = lt;
                xbytes = 2 * Sgr;
            }
        }
        t_in = (ar ? 2 : 1) * ti;
        t_net = (ar ? 2 : 1) * tp + tx;
        lat = m->p.ring_base[p] + (ar ? 2 : 1) * (li + lp) + lx;
        cls = t_net >= t_in ? SN_LINK_SCALE_OUT : (I ? I->cls : G->intra_cls);
        cand_pick(best, t_in + t_net + lat, lat, p, cls,
                  cls == SN_LINK_SCALE_OUT
                      ? (ar ? 2 : 1) * (r - 1) / r * Sg + xbytes
                      : (ar ? 2 : 1) * (g - 1) / g * S,
                  P->flows && X->flows && (!I || I->flows));
    }
    return SN_OK;
}

static int eval_direct(struct sn_coll_model *m, struct grp *G,
                       enum sn_coll_op op, double S, struct cand *best,
                       struct sn_error *err)
{
    const struct patres *P;
    int cls_hop = G->m > 1 ? SN_LINK_SCALE_OUT : G->intra_cls;
    double n = G->n;
    int rc = sn__coll_pat_get(m, G, op == SN_COLL_ALLTOALL ? PAT_A2A : PAT_SR,
                              &P, err);

    if (rc)
        return rc;
    for (int p = 0; p < SN_PROTO_COUNT; p++) {
        double lat, t, bytes;
        if (!m->p.proto_on[p] || p == SN_PROTO_LL128)
            continue; /* NCCL's point-to-point uses LL or Simple */
        if (op == SN_COLL_ALLTOALL) {
            /* one message to each peer; each flow carries S/n */
            lat = m->p.ring_base[p] +
                  (n - 1) * step_lat(hop(m, G, cls_hop, p, false), P->wire);
            t = lat + S / n * P->t_unit / m->p.proto_eff[p];
            bytes = P->cls == SN_LINK_SCALE_OUT ? (n - G->gmax) / n * S
                                                : (G->gmax - 1) / n * S;
        } else {
            lat = m->p.ring_base[p] +
                  step_lat(hop(m, G, cls_hop, p, false), P->wire);
            t = lat + S / (P->bw * m->p.proto_eff[p]);
            bytes = S;
        }
        cand_pick(best, t, lat, p, P->cls, bytes, P->flows);
    }
    return SN_OK;
}

bool sn_coll_algo_applies(struct sn_coll_model *m, enum sn_coll_op op,
                          const struct sn_group *g, enum sn_coll_algo algo)
{
    struct grp *G;
    struct sn_error err;

    if (algo == SN_ALGO_AUTO)
        return true;
    if ((unsigned)op >= SN_COLL_OP_COUNT || (unsigned)algo >= SN_ALGO_COUNT)
        return false;
    if (sn__coll_grp_get(m, g, 1, &G, &err))
        return false;
    return algo_ok(m, G, op, algo);
}

static double nominal_bw(const struct grp *G, int cls)
{
    switch (cls) {
    case SN_LINK_SCALE_UP:
        return G->up_nom;
    case SN_LINK_SCALE_OUT:
        return G->nic_nom;
    default:
        return G->host_nom;
    }
}

static const char *why_not(const struct grp *G, enum sn_coll_op op,
                           enum sn_coll_algo a, char *buf, size_t size)
{
    switch (a) {
    case SN_ALGO_HIER3:
        if (op != SN_COLL_ALLREDUCE && op != SN_COLL_ALLGATHER &&
            op != SN_COLL_REDUCESCATTER)
            return "it runs allreduce, allgather and reducescatter only";
        if (G->m < 2 || !G->regular)
            return "it needs ranks in several scale-up domains, the same "
                   "number in each";
        if (G->pod_noexit)
            return "a rank of the group has no network switch behind its "
                   "NICs";
        if (G->npods < 2)
            return "the group's domains all sit under the same leaf "
                   "switches (one pod: hier runs it)";
        snprintf(buf, size,
                 "it needs two or more of the group's domains under each "
                 "pod's leaf switches, the same number in each (here %u "
                 "pods of %u to %u domains)",
                 G->npods, G->pod_rmin, G->pod_rmax);
        return buf;
    case SN_ALGO_NVLS:
        return op == SN_COLL_ALLREDUCE || op == SN_COLL_ALLGATHER ||
                       op == SN_COLL_REDUCESCATTER
                   ? "it needs one scale-up domain whose switches reduce in "
                     "the network"
                   : "it runs allreduce, allgather and reducescatter only";
    case SN_ALGO_HIER:
        return "it needs ranks in several scale-up domains, the same number "
               "in each";
    case SN_ALGO_DIRECT:
        return "it runs alltoall and sendrecv only";
    case SN_ALGO_TREE:
        return "it runs allreduce, broadcast and reduce only";
    default:
        return "alltoall and sendrecv run direct";
    }
}

int sn_coll_predict(struct sn_coll_model *m, enum sn_coll_op op,
                    const struct sn_group *g, double bytes,
                    enum sn_coll_algo algo, struct sn_coll_result *res,
                    struct sn_error *err)
{
    return sn_coll_predict_siblings(m, op, g, 1, bytes, algo, res, err);
}

int sn_coll_predict_siblings(struct sn_coll_model *m, enum sn_coll_op op,
                             const struct sn_group *g, uint32_t siblings,
                             double bytes, enum sn_coll_algo algo,
                             struct sn_coll_result *res, struct sn_error *err)
{
    struct grp *G;
    struct cand best[SN_ALGO_COUNT];
    char why[160];
    int rc, pick = -1;

    memset(res, 0, sizeof(*res));
    if ((unsigned)op >= SN_COLL_OP_COUNT)
        return sn_error_set(err, SN_EINPUT, "unknown collective %d", (int)op);
    if ((unsigned)algo >= SN_ALGO_COUNT)
        return sn_error_set(err, SN_EINPUT, "unknown algorithm %d", (int)algo);
    if (!(bytes >= 0) || !isfinite(bytes))
        return sn_error_set(err, SN_EINPUT, "message size %g is not a size",
                            bytes);
    rc = sn__coll_grp_get(m, g, siblings, &G, err);
    if (rc)
        return rc;
    if (G->n < 2)
        return sn_error_set(err, SN_EINPUT,
                            "%s needs at least 2 ranks (the group has %u)",
                            sn_coll_op_name(op), G->n);
    if (algo != SN_ALGO_AUTO && !algo_ok(m, G, op, algo))
        return sn_error_set(err, SN_EINPUT,
                            "algorithm %s does not apply to "
                            "%s on this group: %s",
                            sn_coll_algo_name(algo), sn_coll_op_name(op),
                            why_not(G, op, algo, why, sizeof(why)));
    for (int a = SN_ALGO_RING; a < SN_ALGO_COUNT; a++) {
        best[a].time = INFINITY;
        if (algo != SN_ALGO_AUTO && a != (int)algo)
            continue;
        if (!algo_ok(m, G, op, (enum sn_coll_algo)a))
            continue;
        switch (a) {
        case SN_ALGO_RING:
            rc = eval_ring(m, G, op, bytes, &best[a], err);
            break;
        case SN_ALGO_TREE:
            rc = eval_tree(m, G, op, bytes, &best[a], err);
            break;
        case SN_ALGO_NVLS:
            rc = eval_nvls(m, G, op, bytes, &best[a], err);
            break;
        case SN_ALGO_HIER:
            rc = eval_hier(m, G, op, bytes, &best[a], err);
            break;
        case SN_ALGO_HIER3:
            rc = eval_hier3(m, G, op, bytes, &best[a], err);
            break;
        default:
            rc = eval_direct(m, G, op, bytes, &best[a], err);
            break;
        }
        if (rc)
            return rc;
        /* auto: the lowest predicted time, as NCCL's tuner picks; ties go
         * to the earlier algorithm */
        if (pick < 0 || best[a].time < best[pick].time)
            pick = a;
    }
    if (pick < 0 || !isfinite(best[pick].time))
        return sn_error_set(err, SN_EINPUT,
                            "no algorithm runs %s on this group (every "
                            "protocol is off?)",
                            sn_coll_op_name(op));
    res->time = best[pick].time;
    res->latency = best[pick].lat;
    res->algo = (enum sn_coll_algo)pick;
    res->proto = best[pick].proto;
    res->bottleneck = (enum sn_link_class)best[pick].cls;
    res->flows = best[pick].flows;
    res->algbw = sn_coll_algbw(bytes, res->time);
    res->busbw = sn_coll_busbw(op, G->n, bytes, res->time);
    res->bottleneck_bw = nominal_bw(G, best[pick].cls);
    res->bottleneck_eff =
        res->time > 0 && res->bottleneck_bw > 0
            ? best[pick].wire_bytes / res->time / res->bottleneck_bw
            : 0;
    return SN_OK;
}

/* train-comm.h: closed-form alpha-beta collective times for the training
 * tests, so that they exercise the step-time model without a topology.
 * A cluster of nodes of `domain` accelerators: inside a node a switched
 * fabric at `up_busbw` (the nccl-tests bus bandwidth it sustains) and
 * `up_alpha` seconds per collective; across nodes `nic_bw` per NIC and
 * `nics` NICs per node, shared by every group of the same shape (all the
 * sibling groups of a training step run at once). Ring algorithms; an
 * all-to-all leaving the node runs at one NIC's rate per accelerator
 * (NCCL maintainer, nccl-tests #267). */
#ifndef SN_TEST_TRAIN_COMM_H
#define SN_TEST_TRAIN_COMM_H

#include "sn/model.h"

struct tc_fabric {
    int domain;
    double up_busbw, up_alpha;
    double nic_bw, net_alpha;
    int nics;
};

static int tc_time(void *ctx, enum sn_coll_op op, const struct sn_group *g,
                   uint32_t siblings, double bytes, double *sec,
                   struct sn_error *err)
{
    const struct tc_fabric *f = ctx;
    double n = g->n, factor, q, k, t_up, t_net = 0, share;
    uint32_t lo = g->first / (uint32_t)f->domain;
    uint32_t hi = (g->first + (g->n - 1) * g->stride) / (uint32_t)f->domain;

    (void)err, (void)siblings; /* every sibling is taken to be active */
    k = hi - lo + 1;           /* nodes the group spans */
    if (k > n)
        k = n;
    q = n / k; /* its ranks per node */
    switch (op) {
    case SN_COLL_ALLREDUCE:
        factor = 2 * (n - 1) / n;
        break;
    case SN_COLL_SENDRECV:
        factor = 1;
        break;
    default:
        factor = (n - 1) / n;
        break;
    }
    t_up = f->up_alpha + bytes * factor / f->up_busbw;
    if (k > 1) {
        /* the node's NICs are shared by domain/q sibling groups */
        share = f->nics * f->nic_bw / (f->domain / q);
        if (op == SN_COLL_ALLTOALL)
            t_net = f->net_alpha + bytes * (n - q) / n / f->nic_bw;
        else if (op == SN_COLL_SENDRECV)
            t_net = f->net_alpha + bytes / (share / q);
        else
            t_net = f->net_alpha * k + bytes * factor / share;
    }
    *sec = t_up > t_net ? t_up : t_net;
    return SN_OK;
}

/* DGX A100 (Selene): NVSwitch all-reduce busbw 229 GB/s at 1 GB and a
 * ~75 us fixed cost (vTrain's measured nccl-tests table, anchors 3.1);
 * 8 HDR NICs at 24 GB/s each (NCCL maintainer, nccl-tests #119). */
static const struct tc_fabric tc_dgx_a100 = {8, 232e9, 75e-6, 24e9, 20e-6, 8};

#endif

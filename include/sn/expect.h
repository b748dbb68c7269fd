/* expect.h: what the design expects of a measurement, the one answer
 * `bench --spec` and `check` both give: catalog peaks for devices, the
 * rate a pair's ECMP routes give it (shared max-min fairly with the
 * pairs measured at the same moment), the sum of those rates for an
 * aggregate of pairs at once, and for NCCL's collectives the collective
 * model's prediction. Definitions with their reasons: docs/metrics.md
 * ("Expected values") and docs/check.md ("How a run is judged").
 *
 * Ownership: sn_expect_design() fills the caller's array; the sources it
 * writes are static strings; it keeps nothing after it returns.
 *
 * To add a kind of result: 1. a kind here  2. its rule in
 * src/lib/net/expect.c  3. the mapping in bench (runner.c expect_all)
 * and diagnose (expect.c)  4. a row in docs/metrics.md  5. a case in
 * tests/unit/test-diagnose.c.
 */
#ifndef SN_EXPECT_H
#define SN_EXPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sn/coll.h"
#include "sn/spec.h"
#include "sn/topo.h"
#include "sn/util.h"

enum sn_expect_kind {
    SN_EXPECT_NONE,       /* nothing the design describes (host copies) */
    SN_EXPECT_GEMM,       /* FLOP/s of a dense GEMM in dtype */
    SN_EXPECT_MEMORY,     /* B/s of a STREAM kernel */
    SN_EXPECT_PAIR,       /* B/s from rank a to rank b, one direction */
    SN_EXPECT_LATENCY,    /* s of a small message, pair or group */
    SN_EXPECT_AGGREGATE,  /* B/s of the pairs of partner[] at once */
    SN_EXPECT_COLL_BUSBW, /* B/s: nccl-tests bus bandwidth of op */
    SN_EXPECT_COLL_TIME,  /* s: the time of op */
};

/* The group of a pair measured alone: it shares its links with nobody. */
#define SN_EXPECT_ALONE 0u

/* One measurement: what was measured (filled by the caller) and what the
 * design says of it (filled by sn_expect_design). */
struct sn_expect {
    enum sn_expect_kind kind;
    uint32_t a, b;      /* PAIR: from rank a to rank b; COLL_*: the ranks
                           a .. a + b - 1; AGGREGATE: b ranks */
    uint32_t group;     /* PAIR: the pairs of one nonzero group ran at
                           once; SN_EXPECT_ALONE: on its own */
    const int *partner; /* AGGREGATE: each of the b ranks' partner in
                           the round, -1 for none (borrowed) */
    enum sn_coll_op op; /* COLL_* */
    double bytes;       /* COLL_*: the buffer's size */
    char dtype[16];     /* GEMM: "bf16", "fp16", "fp8", ... */
    bool colocated;     /* PAIR: the ranks shared a host the spec gives
                           them apart (bench and check
                           --allow-colocated) */
    double value;       /* out: the design's value, NaN for none */
    const char *source; /* out: where it comes from, or why there is
                           none (one of the notes below); NULL when the
                           design has nothing to say */
};

/* The sources given with no value, so that callers can count them. */
extern const char *const sn_expect_colocated_note;
extern const char *const sn_expect_cpu_fabric_note;
extern const char *const sn_expect_cpu_host_note;

/* What the design spec (topology t, NULL: catalog values only) expects of
 * each of x[0 .. n): fills value and source. device is true when the
 * measurement ran on the accelerators (the cuda backend: device memory,
 * the accelerators' fabric, NCCL's collectives), false for the host (the
 * cpu backend's MPI through host memory).
 *
 *   GEMM       the catalog's dense bf16_flops (bf16, fp16) or fp8_flops;
 *              none for other types
 *   MEMORY     the catalog's hbm_bw, device only
 *   PAIR       the rate its ECMP routes give it, shared max-min fairly
 *              with the pairs of its group (capacity bw x health per
 *              direction; the two directions of a link never compete);
 *              on the host, none for pairs inside one server or over the
 *              scale-up fabric (a note says which)
 *   AGGREGATE  the sum of the rates every pair of the round gets at once,
 *              both directions; none when a pair of it has none
 *   COLL_*     the collective model's busbw or time for op over the
 *              ranks (NCCL's algorithms), device only
 *   LATENCY    none: the catalog describes links, not the software's
 *              cost per message
 *
 * Colocated pairs get no value and sn_expect_colocated_note. Errors:
 * SN_EINPUT when t is not finished; what routing or the model fail
 * with. */
int sn_expect_design(const struct sn_spec *spec, const struct sn_topo *t,
                     bool device, struct sn_expect *x, size_t n,
                     struct sn_error *err);

#endif

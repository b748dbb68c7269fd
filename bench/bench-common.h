/* bench-common.h: what the speed benchmarks under bench/ share: the CPU
 * clock they report beside the wall clock, and the GB200 NVL72 fleet they
 * grow (N racks of 72 on a 3-tier rail fat tree), so that plan-scale and
 * coll-scale time the very same design. Header-only: each benchmark is
 * one translation unit built by its own script. */
#ifndef SN_BENCH_COMMON_H
#define SN_BENCH_COMMON_H

#include <time.h>

/* Seconds of CPU time this process has used (all threads). */
static inline double bench_cpu_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A spec of %d GB200 NVL72 racks (the printf argument appears twice: the
 * name and the supernode count). Callers may append sections. */
#define BENCH_NVL72_FLEET                                                      \
    "name: nvl72-x%d\n"                                                        \
    "accelerator: gb200-nvl72\n"                                               \
    "supernode:\n"                                                             \
    "  accelerators: 72\n"                                                     \
    "  per_node: 4\n"                                                          \
    "  fabric: switched\n"                                                     \
    "  links_per_accelerator: 18\n"                                            \
    "  switch: nvlink5-switch\n"                                               \
    "  medium: copper\n"                                                       \
    "supernodes: %d\n"                                                         \
    "scaleout:\n"                                                              \
    "  topology: rail_fat_tree\n"                                              \
    "  nics_per_node: 4\n"                                                     \
    "  nic: cx7-400g\n"                                                        \
    "  switch: quantum-x800-q3400\n"                                           \
    "  tiers: 3\n"                                                             \
    "racks:\n"                                                                 \
    "  nodes_per_rack: 18\n"                                                   \
    "  node_units: 1\n"

#endif

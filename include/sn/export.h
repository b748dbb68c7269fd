/* export.h: the files the runtime reads, rendered from the built
 * topology (`supernode export`): NCCL's topology XML, Slurm's topology,
 * Open MPI's hostfile and rankfile, Kubernetes labels; and the node names
 * they are written for.
 *
 * Each renders one file from the built topology; the text goes to out
 * (caller-owned), nothing is printed. Host names come from the caller:
 * an array of one name per node in rank order (node 0 of supernode 0
 * first), which sn_spec_hosts() (sn/spec.h) fills from the spec, a hosts
 * file or the default "node000".. names. Formats and assumptions:
 * docs/export.md.
 *
 * To add an export: 1. src/lib/export/<name>.c  2. its function
 * here  3. its subcommand in src/cli/cmd-export.c  4. docs/export.md
 * 5. a unit test in tests/unit/test-export.c and a golden case. */
#ifndef SN_EXPORT_H
#define SN_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sn/util.h"

struct sn_spec;
struct sn_topo;

/* Slurm's hostlist form of names in their order: runs of a common prefix
 * and consecutive numbers of one width joined ("node[001-018,020]"),
 * other names as they are, comma-separated. */
void sn_hostlist_compress(const char *const *names, size_t n,
                          struct sn_buf *out);
/* Expand a hostlist expression into its names (heap array of heap
 * strings, sn_spec_hosts_free()); at most max names. SN_EINPUT for a
 * malformed expression or more than max names. */
int sn_hostlist_expand(const char *expr, size_t max, char ***names, size_t *n,
                       struct sn_error *err);

/* The NCCL topology file (NCCL_TOPO_FILE) of node `node` (global index:
 * supernode x nodes per supernode + node within it). SN_EINPUT when the
 * node is out of range or the accelerator is neither NVIDIA's (NCCL) nor
 * AMD's (RCCL, which reads the same file). */
int sn_export_nccl_topo(const struct sn_topo *t, uint32_t node,
                        struct sn_buf *out, struct sn_error *err);

/* The machine's own names for a node's devices, so that NCCL, which keeps
 * only the devices it finds by bus id (and NICs by name), uses the file:
 * from a file of lines "gpu I BUSID" and "nic J NAME BUSID" ('#'
 * comments), I and J the design's device numbers within the node, BUSID
 * as nvidia-smi or sysfs writes it ("00000000:18:00.0" or
 * "0000:18:00.0"), NAME the RDMA device ("mlx5_0"). */
#define SN_NCCL_MAX_DEV 32
struct sn_nccl_machine {
    char gpu_busid[SN_NCCL_MAX_DEV][16]; /* "" where not given */
    char nic_busid[SN_NCCL_MAX_DEV][16];
    char nic_name[SN_NCCL_MAX_DEV][64];
};
/* Parse such a file into *m (zeroed first). SN_EINPUT with
 * "file:line:col: ..." for a bad line, number, bus id or name, or a
 * device given twice. */
int sn_nccl_machine_parse(const char *file, const char *text, size_t len,
                          struct sn_nccl_machine *m, struct sn_error *err);
/* sn_export_nccl_topo() with the machine's names where m gives them (m
 * may be NULL); SN_EINPUT when m names a device the node does not have. */
int sn_export_nccl_topo_on(const struct sn_topo *t, uint32_t node,
                           const struct sn_nccl_machine *m, struct sn_buf *out,
                           struct sn_error *err);

/* Slurm topology: SN_SLURM_BLOCK writes topology.conf for topology/block
 * (a block per scale-up domain), SN_SLURM_TREE topology.conf for
 * topology/tree (the scale-out switches), both together topology.yaml
 * (Slurm 25.05+). SN_EINPUT when the design has nothing for a plugin
 * asked for (one-node domains for block, no designed network for tree). */
#define SN_SLURM_BLOCK 1u
#define SN_SLURM_TREE 2u
int sn_export_slurm(const struct sn_topo *t, const char *const *hosts,
                    unsigned plugins, struct sn_buf *out, struct sn_error *err);
/* The plugins a design has something for (SN_SLURM_* bits). */
unsigned sn_export_slurm_plugins(const struct sn_topo *t);

/* Open MPI hostfile ("host slots=N") and rankfile ("rank R=host
 * slot=S:C"): consecutive ranks fill a scale-up domain, within a node
 * ranks follow the rails of the accelerators' NICs, each rank bound to a
 * core of the socket its accelerator hangs from. */
int sn_export_hostfile(const struct sn_topo *t, const char *const *hosts,
                       struct sn_buf *out, struct sn_error *err);
int sn_export_rankfile(const struct sn_topo *t, const char *const *hosts,
                       struct sn_buf *out, struct sn_error *err);

/* Kubernetes node labels for the scale-up domains that span nodes, as a
 * kubectl script; *multi is false (and out a comment saying so) when
 * every domain is one node. */
#define SN_K8S_CLIQUE_LABEL "supernode.io/scaleup-clique"
int sn_export_k8s(const struct sn_topo *t, const char *const *hosts,
                  struct sn_buf *out, bool *multi, struct sn_error *err);

#endif

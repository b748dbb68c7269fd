/* nccl.h: what the runtime made of the design. NCCL writes the topology
 * it detected (NCCL_TOPO_DUMP_FILE, XML) and, with NCCL_DEBUG=INFO, the
 * choices it made (a log); these parsers read both and compare them with
 * the node the spec describes, each mismatch a check in a health report
 * (sn/health.h) with its remedy. `supernode doctor --nccl-topo` and
 * `supernode check --nccl-log` print them; the cuda bench backend reads
 * back the dump and log of its own runs.
 *
 * Ownership: sn_nccl_topo_load()/sn_nccl_log_load() hand back heap objects
 * freed with sn_nccl_topo_free()/sn_nccl_log_free(); every string in them
 * is owned by the object, cleaned of control characters. The design and
 * report are the caller's.
 *
 * To add a check: 1. a function in src/lib/nccl/nccl-check.c (the dump) or
 * nccl-judge.c (the log) that calls sn_health_report_add() with a
 * "nccl.topo.*" or "nccl.log.*" name  2. its call in
 * sn_nccl_topo_check()/sn_nccl_log_check()
 * 3. docs/doctor.md or docs/check.md  4. a fixture in tests/fixtures/nccl/
 * that makes it fail, and a test.
 */
#ifndef SN_NCCL_H
#define SN_NCCL_H

#include <stdbool.h>
#include <stddef.h>

#include "sn/health.h"
#include "sn/spec.h"
#include "sn/util.h"

/* Caps on what the parsers trust from a file. */
#define SN_NCCL_TOPO_MAX_BYTES                                                 \
    (8u << 20) /* a dump of a 72-GPU domain is                                 \
                  well under 1 MiB */
#define SN_NCCL_LOG_MAX_BYTES (256u << 20)
#define SN_NCCL_LOG_MAX_LINE 4096 /* longer lines are cut here */
#define SN_NCCL_MAX_GPUS 128
#define SN_NCCL_MAX_NICS 128
#define SN_NCCL_MAX_CPUS 64
#define SN_NCCL_MAX_PEERS 32 /* NVLink targets of one GPU */

/* ---- what the design expects -------------------------------------------- */

struct sn_nccl_design {
    int gpus;        /* per node; -1 not checked */
    int nvlinks;     /* active NVLinks per GPU; -1 not checked */
    bool nvswitch;   /* the links go to NVSwitch chips (else GPU peers) */
    int nics;        /* compute NIC ports per node; -1 not checked */
    double nic_gbps; /* per port, Gb/s; 0 not checked */
    bool nic_near;   /* each GPU has its own NIC at PIX or PXB */
    bool nvls;       /* in-switch reduction (NVLS) expected */
    int numa_nodes;  /* CPU sockets / NUMA nodes; -1 not checked */
};

/* Nothing expected. */
void sn_nccl_design_init(struct sn_nccl_design *d);
/* A design that expects nothing, for checks given none (static). */
const struct sn_nccl_design *sn_nccl_design_none(void);
/* What the spec expects of one node, through the node section's rules
 * (sn_health_node_from_spec): GPUs, NVLinks per GPU and whether they go
 * to NVSwitch, NICs and their speed, NIC placement (node.nic_per_switch,
 * or one NIC per GPU), NVLS from the switch's in-network reduction.
 * SN_EINPUT with the node section's located error. */
int sn_nccl_design_from_spec(const struct sn_spec *spec,
                             struct sn_nccl_design *d, struct sn_error *err);
/* The same from a spec file; spec_path NULL: nothing expected. */
int sn_nccl_design_load(const char *spec_path, struct sn_nccl_design *d,
                        struct sn_error *err);

/* ---- the topology dump ----------------------------------------------------
 */

/* PCIe distance between a GPU and a NIC in NCCL's words (src/graph/
 * paths.cc): PIX one PCIe switch between them, PXB several, PHB through
 * the CPU's host bridge, SYS across CPU sockets (NUMA nodes). */
enum sn_nccl_path {
    SN_NCCL_PATH_PIX,
    SN_NCCL_PATH_PXB,
    SN_NCCL_PATH_PHB,
    SN_NCCL_PATH_SYS,
    SN_NCCL_PATH_NONE, /* no NIC */
};

struct sn_nccl_peer {
    char target[32]; /* the remote end's bus id as NCCL wrote it */
    int count;       /* NVLinks to it */
    int gpu;         /* index into gpus when the target is one, else -1 */
};

struct sn_nccl_gpu {
    char busid[32]; /* "0000:18:00.0" */
    int dev, rank, sm, gdr;
    int cpu;       /* index into cpus */
    int nvs_links; /* NVLinks to NVSwitch chips (tclass 0x068000) */
    int cpu_links; /* NVLinks to a CPU (tclass 0x068001), C2C apart */
    int c2c;       /* C2C links (Grace) */
    struct sn_nccl_peer peers[SN_NCCL_MAX_PEERS]; /* GPU-to-GPU NVLinks */
    int npeers;
    int nic;                /* the NIC paired with it (see docs), -1 none */
    enum sn_nccl_path path; /* to that NIC */
    int line;               /* of the <gpu> element */
};

struct sn_nccl_nic {
    char busid[32]; /* of the PCI function, "" for a virtual one */
    char name[64];  /* "mlx5_0", "eth0" */
    int dev, port, gdr;
    long long speed_mbps; /* as NCCL wrote it; <= 0 unknown */
    int cpu;
    int line;
};

struct sn_nccl_cpu {
    int numaid;
    char affinity[160];
    char arch[16];
    char vendor[32];
};

struct sn_nccl_topo {
    char *file;
    struct sn_nccl_gpu gpus[SN_NCCL_MAX_GPUS];
    int ngpus;
    struct sn_nccl_nic nics[SN_NCCL_MAX_NICS];
    int nnics;
    struct sn_nccl_cpu cpus[SN_NCCL_MAX_CPUS];
    int ncpus;
};

/* Read a dump (at most SN_NCCL_TOPO_MAX_BYTES) with libxml2, no network,
 * no DTD, no entity expansion, into *out (NULL on failure). Follows
 * NCCL's own rules: root <system version="1">, at most 16 attributes per
 * element, values of at most 255 characters. SN_EIO when the file cannot
 * be read; SN_EINPUT with "file:line:col: what is wrong". */
int sn_nccl_topo_load(const char *path, struct sn_nccl_topo **out,
                      struct sn_error *err);
/* The same from memory; name is what errors are reported under. */
int sn_nccl_topo_parse(const char *name, const char *text, size_t len,
                       struct sn_nccl_topo **out, struct sn_error *err);
void sn_nccl_topo_free(struct sn_nccl_topo *t);
/* "PIX", "PXB", "PHB", "SYS", "-". */
const char *sn_nccl_path_name(enum sn_nccl_path p);

/* Compare the dump with the design and add "nccl.topo.*" checks to rep:
 * GPUs, NVLinks per GPU (or per GPU pair on a mesh), NICs and their
 * speed, each GPU's NIC and its PCIe distance, GPUDirect RDMA, NUMA
 * nodes. A design field left unchecked gives a pass naming what was
 * found. */
void sn_nccl_topo_check(const struct sn_nccl_topo *t,
                        const struct sn_nccl_design *d,
                        struct sn_health_report *rep);

/* ---- the debug log --------------------------------------------------------
 */

/* The transport NCCL chose for one connection ("via ..."). */
enum sn_nccl_transport {
    SN_NCCL_TR_P2P,        /* P2P/CUMEM, P2P/IPC, P2P/direct pointer */
    SN_NCCL_TR_SHM,        /* through host memory */
    SN_NCCL_TR_NET_IB,     /* NET/IB (InfiniBand or RoCE verbs) */
    SN_NCCL_TR_NET_SOCKET, /* NET/Socket: TCP */
    SN_NCCL_TR_NET_OTHER,  /* a net plugin (NET/OFI, NET/AWS Libfabric) */
    SN_NCCL_TR_COLLNET,
    SN_NCCL_TR_NVLS,
    SN_NCCL_TR_OTHER,
    SN_NCCL_TR_COUNT
};

/* "P2P", "SHM", "NET/IB", "NET/Socket", ... */
const char *sn_nccl_transport_name(enum sn_nccl_transport t);

#define SN_NCCL_LOG_MAX_RANKS 4096
#define SN_NCCL_LOG_MAX_WARN 32
#define SN_NCCL_LOG_MAX_ENV 32

struct sn_nccl_log_line {
    int line;
    char text[256];
};

struct sn_nccl_log {
    char *file;
    char version[32];    /* "2.21.5" */
    char built_cuda[16]; /* "12.4", from "NCCL version 2.21.5+cuda12.4" */
    int version_line;
    int cuda_driver; /* "cudaDriverVersion 12060": 12060, 0 not said */
    int nranks, nnodes, local_ranks; /* -1 when the log does not say */
    bool mnnvl;
    char **rank_host; /* rank_host[r] or NULL; nranks entries */
    int rank_host_n;
    char network[32]; /* "IB", "Socket", a plugin's; "" unknown */
    int network_line;
    bool ib_none; /* "NET/IB : No device found" */
    int ib_none_line;
    char socket_if[64]; /* "eth0" of "NET/Socket : Using [0]eth0:..." */
    int ib_devices;     /* devices listed by "NET/IB : Using" */
    int nvls;           /* 1 available, 0 not, -1 not said */
    int nvls_line;
    int coll_channels, collnet_channels, nvls_channels, p2p_channels;
    int channels_line;
    int collnet_env;  /* NCCL_COLLNET_ENABLE, -1 not set */
    int rings, trees; /* "Channel NN/MM :" ring lines, "Trees" lines */
    bool connected_rings, connected_trees;
    /* connections by transport: within a node and between nodes */
    long long intra[SN_NCCL_TR_COUNT], inter[SN_NCCL_TR_COUNT];
    int intra_line[SN_NCCL_TR_COUNT]; /* first of each */
    long long ib_no_gdr;              /* NET/IB without GDRDMA */
    int ib_no_gdr_line;
    struct sn_nccl_log_line gdr_off[SN_NCCL_LOG_MAX_WARN];
    int ngdr_off;
    struct sn_nccl_log_line warns[SN_NCCL_LOG_MAX_WARN];
    int nwarns, warns_total;
    struct sn_nccl_log_line env[SN_NCCL_LOG_MAX_ENV]; /* "X set by ..." */
    int nenv;
    long long lines, nccl_lines, cut_lines;
};

/* Read a log (at most SN_NCCL_LOG_MAX_BYTES; lines longer than
 * SN_NCCL_LOG_MAX_LINE are cut, and counted). Lines other than NCCL's are
 * skipped, so a job's whole output can be given. SN_EIO when the file
 * cannot be read; SN_EINPUT "file:1: no NCCL INFO lines (...)" when it
 * holds none. */
int sn_nccl_log_load(const char *path, struct sn_nccl_log **out,
                     struct sn_error *err);
int sn_nccl_log_parse(const char *name, const char *text, size_t len,
                      struct sn_nccl_log **out, struct sn_error *err);
void sn_nccl_log_free(struct sn_nccl_log *l);

/* Compare the log with the design and add "nccl.log.*" checks to rep:
 * version, ranks and nodes, the network NCCL chose, the transport of
 * intra- and inter-node peers, GPUDirect RDMA, NVLS, CollNet, channels,
 * and NCCL's own warnings. d may be NULL (nothing expected). */
void sn_nccl_log_check(const struct sn_nccl_log *l,
                       const struct sn_nccl_design *d,
                       struct sn_health_report *rep);

#endif

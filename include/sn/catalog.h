/* catalog.h: the built-in catalog of accelerators, switch chips, NICs,
 * cables and model presets, each number with its source and confidence,
 * the lookups over any catalog (built-in, or one a spec extends) and the
 * arithmetic on a model preset's shape.
 *
 * Ownership: entries returned by lookups are owned by the catalog
 * (built-in: static; user entries: by the spec that added them) and live
 * as long as it does.
 *
 * To add a catalog entry: 1. the table in src/lib/catalog/catalog-accels.c,
 * catalog-parts.c or catalog-models.c with its source and confidence, and
 * its count in catalog-int.h  2. a row in docs/catalog.md.
 */
#ifndef SN_CATALOG_H
#define SN_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "sn/util.h"

/* The longest catalog name (and each of a model's aliases), bytes. */
#define SN_CATALOG_MAX_NAME 64

/* ---- catalog ----------------------------------------------------------- */

enum sn_fabric {
    SN_FABRIC_NONE,         /* no scale-up links (one device per supernode,
                               or a CPU cluster) */
    SN_FABRIC_SWITCHED,     /* links into switch chips in planes */
    SN_FABRIC_FULL_MESH,    /* every pair a direct link */
    SN_FABRIC_PARTIAL_MESH, /* full mesh in groups, up-links between */
    SN_FABRIC_TORUS,        /* 2D or 3D torus */
    SN_FABRIC_PCIE_TREE,    /* PCIe switches under the host */
};

/* How sure a number is (reference/hardware-catalog.md markers). */
enum sn_confidence {
    SN_CONF_VENDOR,    /* [V] vendor primary material */
    SN_CONF_SECONDARY, /* [S] press, analysts, third-party spec sites */
    SN_CONF_DERIVED,   /* [D] arithmetic on cited numbers */
    SN_CONF_ESTIMATE,  /* [E] estimate, unverified, or sources disagree */
    SN_CONF_USER,      /* given in the spec by the user */
};

struct sn_accel_info {
    const char *name;    /* catalog key, lowercase: "h100-sxm5-80gb" */
    const char *display; /* as the vendor writes it: "H100-SXM5-80GB" */
    const char *vendor;
    double bf16_flops; /* dense BF16/FP16 tensor FLOP/s */
    double fp8_flops;  /* dense FP8 FLOP/s; 0 when not supported */
    double hbm_bytes;  /* HBM capacity, bytes */
    /* what the driver reports as the device's memory (nvidia-smi's total),
     * the room a training job has; 0 when unknown: hbm_bytes serves */
    double hbm_usable_bytes;
    double hbm_bw;            /* HBM bandwidth, bytes/s */
    const char *scaleup_name; /* "NVLink 4" */
    int scaleup_links;        /* scale-up links per accelerator */
    double scaleup_bw;        /* bytes/s per direction, summed over links */
    double tdp_w;             /* 0 when not published */
    int max_domain;           /* largest scale-up domain the vendor supports */
    double transient_factor;  /* peak/TDP under load spikes */
    enum sn_confidence confidence;
    const char *source;
    /* Defaults a spec takes from its accelerator (added after the first
     * interface; 0 or NULL where the field has no value). */
    int per_node;            /* accelerators per node, tray or host */
    enum sn_fabric fabric;   /* its native scale-up fabric */
    int scaleup_tiers;       /* switch tiers of that fabric (1 or 2) */
    int scaleup_planes;      /* switch planes; 0 = one per link */
    const char *switch_name; /* its scale-up switch chip, or NULL */
    double node_overhead;    /* node power / accelerator TDP */
    /* Switch chips on one node's board as the platform carries them
     * (HGX H100/H200: 4 NVSwitch chips, each GPU's 18 links split
     * 5/4/4/5; HGX B200/B300: 2; HGX A100: 6); a one-node switched
     * supernode takes them unless its spec says otherwise. 0: computed
     * from the radix. */
    int board_switches;
    double fp4_flops; /* dense FP4 (NVFP4/MXFP4) FLOP/s; 0 when none */
    /* The share of a scale-up link's rate the vendor's collective library
     * moves as payload; 0: by NVLink generation, or the generic share */
    double scaleup_eff;
    /* The host side of one node: its CPUs (0: one host complex) and each
     * accelerator's link to its CPU, bytes/s per direction (0: PCIe 5.0
     * x16) and name ("NVLink-C2C"; NULL: "PCIe") */
    int host_cpus;
    double host_bw;
    const char *host_link;
    bool roadmap; /* announced, not shipping: figures may change */
    /* dense INT8 tensor rate, operations/s (W8A8 GEMMs); 0 when none */
    double int8_ops;
};

/* Which fabric a switch chip serves and what it can do. */
struct sn_switch_info {
    const char *name; /* "nvswitch-gen3", "qm9700" */
    const char *display;
    const char *vendor;
    bool scale_up;  /* a scale-up (NVLink/UB) chip, else a network box */
    int radix;      /* ports */
    double port_bw; /* bytes/s per direction per port */
    double power_w; /* per chip (scale-up) or per box (network) */
    bool in_network_reduction; /* NVLS / SHARP */
    double latency;            /* port-to-port, seconds */
    int chips_per_box; /* chips per switch tray or box (NVL72 tray: 2) */
    int rack_units;    /* height of one tray or box */
    enum sn_confidence confidence;
    const char *source;
    /* logical ports one front-panel cage carries, and so links one
     * pluggable module in it carries (QM9700: 32 twin-port OSFP cages
     * for 64 ports, 2); 0 or 1: a module a port */
    int ports_per_cage;
};

struct sn_nic_info {
    const char *name; /* "cx7-400g" */
    const char *display;
    const char *vendor;
    double rate; /* bytes/s per direction per port */
    int ports;
    double power_w;
    enum sn_confidence confidence;
    const char *source;
    /* ports one cage of the system carries (DGX H100: 8 ConnectX-7
     * ports behind 4 twin-port OSFP cages, 2); 0 or 1: a module a port */
    int ports_per_cage;
};

enum sn_medium {
    SN_MEDIUM_BOARD,  /* traces or backplane: no cable */
    SN_MEDIUM_COPPER, /* passive copper (DAC, NVLink cable spine) */
    SN_MEDIUM_ACC,    /* active copper */
    SN_MEDIUM_AOC,    /* active optical cable */
    SN_MEDIUM_MMF,    /* multimode fibre with two transceivers */
    SN_MEDIUM_SMF,    /* single-mode fibre with two transceivers */
    SN_MEDIUM_COUNT
};

struct sn_cable_info {
    const char *name; /* "dac-400g", "mmf-sr4-400g" */
    const char *display;
    enum sn_medium medium;
    double max_reach;           /* metres */
    double rate;                /* bytes/s per direction */
    double transceiver_power_w; /* per end; 0 for passive media */
    bool needs_transceivers;    /* two pluggable optics per cable */
    enum sn_confidence confidence;
    const char *source;
    bool scale_up; /* a scale-up cable (NVLink copper); never picked
                      by sn_catalog_cable_for() */
    /* links one module at a link end carries: a module whose lanes break
     * out into several narrower links (CloudMatrix 384: one 400G module
     * for two 28 GB/s UB links); 0 or 1: one link a module */
    int links_per_module;
    /* The pluggable modules an optical cable takes at its ends: in a
     * cage of one port (`module`, transceiver_power_w) and in a cage of
     * two (`twin_module`, twin_module_w for the module's two links);
     * NULL where the catalog names none */
    const char *module;
    const char *twin_module;
    double twin_module_w;
    /* the reach is an assumption, not a vendor's figure: the cable is
     * used where a spec names it, never chosen by reach */
    bool reach_estimated;
};

/* A transformer model: dense or mixture-of-experts. */
enum sn_attention {
    SN_ATTN_GQA = 0, /* multi-head, or grouped-query with kv_heads < heads */
    SN_ATTN_MLA,     /* multi-head latent attention (DeepSeek-V2/V3) */
};

struct sn_model_info {
    const char *name; /* "gpt3-175b", "llama3-70b" */
    const char *display;
    int layers;
    int hidden;
    int heads;
    int kv_heads; /* = heads without GQA */
    int ffn;      /* MLP inner size (per expert for MoE) */
    int vocab;
    int seq;        /* default sequence length */
    bool gated_mlp; /* SwiGLU: 3 matrices instead of 2 */
    int experts;    /* 0 or 1 = dense */
    int topk;       /* experts per token */
    int shared_experts;
    int moe_layers;       /* layers with MoE MLP (0 = all when experts > 1) */
    double params;        /* total parameters, as published */
    double active_params; /* per token, as published (MoE) */
    enum sn_confidence confidence;
    const char *source;
    int dense_ffn;        /* MLP inner size of the dense layers of a MoE
                             model (0 = ffn) */
    bool tied_embeddings; /* input and output embeddings share weights */
    /* ---- issue 17: MoE and inference (0 = not given: the plain case) */
    const char *aliases; /* other names, comma-separated: "deepseek-r1" */
    int head_dim;        /* per attention head (0 = hidden / heads) */
    enum sn_attention attention; /* MHA/GQA or MLA */
    /* multi-head latent attention (DeepSeek-V2/V3): the low-rank query
     * and key-value projections and the head dimensions */
    int q_lora_rank, kv_lora_rank;
    int qk_nope_head_dim, qk_rope_head_dim, v_head_dim;
    int dense_layers; /* the first layers with a dense MLP (DeepSeek: 3);
                         with moe_layers, the rest are MoE */
    int moe_every;    /* a MoE layer every N layers (Llama 4 Maverick: 2;
                         0 or 1 = every layer past dense_layers) */
    int shared_ffn;   /* MLP inner size of a shared expert (0 = ffn) */
    int window;       /* sliding-window attention span, tokens (0: none) */
    int window_every; /* 1 of N layers is full attention, the others
                         sliding (GPT-OSS: 2, alternating); 0: all layers
                         sliding when window > 0 */
    int mtp_layers;   /* multi-token prediction modules (DeepSeek-V3: 1) */
};

/* The catalog: built-in entries plus any a spec adds or overrides. */
struct sn_catalog {
    const struct sn_accel_info *const *accels;
    size_t naccels;
    const struct sn_switch_info *const *switches;
    size_t nswitches;
    const struct sn_nic_info *const *nics;
    size_t nnics;
    const struct sn_cable_info *const *cables;
    size_t ncables;
    const struct sn_model_info *const *models;
    size_t nmodels;
};

/* The built-in catalog (static, never freed). */
const struct sn_catalog *sn_catalog_builtin(void);
/* Lookups by name, case-insensitive; NULL when absent. */
const struct sn_accel_info *sn_catalog_accel(const struct sn_catalog *c,
                                             const char *name);
const struct sn_switch_info *sn_catalog_switch(const struct sn_catalog *c,
                                               const char *name);
const struct sn_nic_info *sn_catalog_nic(const struct sn_catalog *c,
                                         const char *name);
const struct sn_cable_info *sn_catalog_cable(const struct sn_catalog *c,
                                             const char *name);
/* A model by its name or any of its aliases (a name wins over an alias). */
const struct sn_model_info *sn_catalog_model(const struct sn_catalog *c,
                                             const char *name);
/* Parameters of model m counted from its dimensions: *total over every
 * layer and the embeddings, *active those one token meets (top-k routed
 * and the shared experts); the MTP modules apart (sn_model_mtp_params).
 * Norms and biases are left out (under 0.1 %). Either pointer may be
 * NULL. */
void sn_model_params(const struct sn_model_info *m, double *total,
                     double *active);
/* The weight matrices of m as the published counts take them (no norms,
 * biases or learned positions): one layer's attention, a dense layer's
 * MLP, an MoE layer's MLP whole (every routed expert, the shared ones,
 * the router; 0 for a dense model) and as one token meets it (top-k
 * routed), the input and output embeddings. sn_model_params sums them
 * over the layers; the training model adds what training holds besides
 * (sn_train_params). */
struct sn_model_parts {
    double attn, dense, moe, moe_active, embeddings;
};
void sn_model_parts(const struct sn_model_info *m, struct sn_model_parts *p);
/* The unique parameters of m's multi-token-prediction modules; 0 without
 * them. */
double sn_model_mtp_params(const struct sn_model_info *m);
/* Whether layer i (0-based) of m has an MoE MLP, and how many do. */
bool sn_model_layer_is_moe(const struct sn_model_info *m, int i);
int sn_model_moe_layers(const struct sn_model_info *m);
/* Whether the MoE and attention fields of m agree with each other and
 * with its shape (MLA dimensions with attention: mla and head_dim
 * without, the dense/MoE layer pattern within the layers and the
 * experts, shared_ffn with shared experts, window_every with a window,
 * aliases a list of names). SN_OK, or SN_EINPUT with what is wrong
 * (unlocated) in msg and, when where is not NULL, the node of map (the
 * model's YAML mapping, may be NULL) whose key is at fault in *where, map
 * itself when that key is absent. */
int sn_model_check(const struct sn_model_info *m, const struct sn_yaml *map,
                   const struct sn_yaml **where, char *msg, size_t size);
/* The cheapest medium that reaches `length` metres at `rate` bytes/s:
 * copper, then AOC/multimode, then single-mode; cables whose reach is
 * an assumption (reach_estimated) are never chosen here. */
const struct sn_cable_info *sn_catalog_cable_for(const struct sn_catalog *c,
                                                 double length, double rate);
const char *sn_medium_name(enum sn_medium m);
const char *sn_confidence_mark(enum sn_confidence c); /* "V", "S", ... */

/* Library-internal (the spec's did-you-mean): the name closest to word
 * among n entries (each starting with `const char *name`), or NULL. */
const char *sn__catalog_suggest(const void *const *items, size_t n,
                                const char *word);

#endif

/* catalog.c: the built-in catalog of accelerators, switch chips and boxes,
 * NICs, cables and model presets. Every number carries its source and a
 * confidence mark ([V] vendor, [S] secondary, [D] derived, [E] estimate);
 * docs/catalog.md lists the same entries for readers. Units are SI:
 * FLOP/s, bytes, bytes/s per direction, W, s, m. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "spec-int.h"

/* Shorthands for the unit arithmetic in the tables below. */
#define TF 1e12 /* TFLOP/s */
#define GB 1e9  /* bytes, or bytes/s per direction */
#define MIB 1048576.0 /* the MiB nvidia-smi counts memory in */
#define TBS 1e12
#define GBPS (1e9 / 8) /* one Gb/s in bytes/s */

/* Accelerators spike to 120-130 % of TDP under load; the planner takes
 * the top of that range (DOMAIN.md, field practice) [E]. */
#define TRANSIENT 1.3
/* Node power over accelerator power for an 8-accelerator server: DGX H100
 * 10.2 kW / (8 x 700 W) = 1.82, DGX B200 14.3 kW / (8 x 1000 W) = 1.79
 * (hardware-catalog.md section 4.1) [D]. */
#define OVERHEAD_8GPU 1.8

/* ---- accelerators: every row of reference/accelerators.csv ---------- */

static const struct sn_accel_info a100 = {
    .name = "a100-sxm4-80gb",
    .display = "A100-SXM4-80GB",
    .vendor = "NVIDIA",
    .bf16_flops = 312 * TF,
    .fp8_flops = 0,
    .hbm_bytes = 80 * GB,
    /* nvidia-smi's total on A100 80GB (modal-labs/modal-client PR #2797) */
    .hbm_usable_bytes = 81920 * MIB,
    .hbm_bw = 2.039 * TBS,
    .scaleup_name = "NVLink 3",
    .scaleup_links = 12,
    .scaleup_bw = 300 * GB,
    .tdp_w = 400,
    .max_domain = 8,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_VENDOR,
    .source = "[V] NVIDIA A100 datasheet "
              "(nvidia-a100-datasheet-us-nvidia-1758950-r4) as tabulated at "
              "glennklockwood.com/garden/processors/A100; 12 NVLink 3 links x "
              "25 GB/s per direction = 600 GB/s bidirectional; no FP8; domain "
              "8 = HGX/DGX A100; node overhead 1.8 from DGX H100/B200 [D]",
    .per_node = 8,
    .fabric = SN_FABRIC_SWITCHED,
    .scaleup_tiers = 1,
    .scaleup_planes = 6,
    .switch_name = "nvswitch-gen2",
    .node_overhead = OVERHEAD_8GPU,
    .board_switches = 6,
    /* two host CPUs per node, as DGX (2 Xeon, hardware-catalog.md 2.1) */
    .host_cpus = 2,
};

static const struct sn_accel_info h100 = {
    .name = "h100-sxm5-80gb",
    .display = "H100-SXM5-80GB",
    .vendor = "NVIDIA",
    .bf16_flops = 989.4 * TF,
    .fp8_flops = 1978.9 * TF,
    .hbm_bytes = 80 * GB,
    /* nvidia-smi's total on H100 SXM5 80GB (NVIDIA/nccl #1264; modal-labs/
     * modal-client PR #2797) */
    .hbm_usable_bytes = 81559 * MIB,
    .hbm_bw = 3.35 * TBS,
    .scaleup_name = "NVLink 4",
    .scaleup_links = 18,
    .scaleup_bw = 450 * GB,
    .tdp_w = 700,
    .max_domain = 256,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_VENDOR,
    .source =
        "[V] NVIDIA H100 SXM datasheet (1979/3958 TFLOPS with sparsity, dense "
        "= half) reproduced at "
        "archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100; 18 links x 25 GB/s "
        "per direction = 900 GB/s bidirectional; domain 8 in HGX/DGX, 256 with "
        "the NVLink Switch System (NVIDIA developer blog, third-generation "
        "NVSwitch); node overhead DGX H100 10.2 kW / 5.6 kW = 1.82 [D]",
    .per_node = 8,
    .fabric = SN_FABRIC_SWITCHED,
    .scaleup_tiers = 1,
    .scaleup_planes = 1,
    .switch_name = "nvswitch-gen3",
    .node_overhead = 1.82,
    .board_switches = 4,
    /* two host CPUs per node, as DGX (2 Xeon, hardware-catalog.md 2.1) */
    .host_cpus = 2,
};

static const struct sn_accel_info h200 = {
    .name = "h200-sxm-141gb",
    .display = "H200-SXM-141GB",
    .vendor = "NVIDIA",
    .bf16_flops = 989.4 * TF,
    .fp8_flops = 1978.9 * TF,
    .hbm_bytes = 141 * GB,
    /* nvidia-smi's total, measured on an H200 SXM (driver 580.159.04,
     * docs/benchmarks.md "On a GPU") */
    .hbm_usable_bytes = 143771 * MIB,
    .hbm_bw = 4.8 * TBS,
    .scaleup_name = "NVLink 4",
    .scaleup_links = 18,
    .scaleup_bw = 450 * GB,
    .tdp_w = 700,
    .max_domain = 256,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_VENDOR,
    .source = "[V] same GH100 compute as H100; 141 GB HBM3e at 4.8 TB/s; "
              "MLCommons inference_results_v4.1 H200-SXM-141GBx8 system JSON: "
              "'18x 4th Gen NVLink, 900GB/s', 'H200 TGP 700W'; 256 GPUs with "
              "the NVLink Switch System; DGX H200 shares the DGX H100 power "
              "(10.2 kW) -> overhead 1.82 [D]",
    .per_node = 8,
    .fabric = SN_FABRIC_SWITCHED,
    .scaleup_tiers = 1,
    .scaleup_planes = 1,
    .switch_name = "nvswitch-gen3",
    .node_overhead = 1.82,
    .board_switches = 4,
    /* two host CPUs per node, as DGX (2 Xeon, hardware-catalog.md 2.1) */
    .host_cpus = 2,
};

static const struct sn_accel_info b200 = {
    .name = "b200-hgx",
    .display = "B200 (HGX/DGX B200)",
    .vendor = "NVIDIA",
    .bf16_flops = 2250 * TF,
    .fp8_flops = 4500 * TF,
    .hbm_bytes = 180 * GB,
    .hbm_bw = 8.0 * TBS,
    .scaleup_name = "NVLink 5",
    .scaleup_links = 18,
    .scaleup_bw = 900 * GB,
    .tdp_w = 1000,
    .max_domain = 8,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_VENDOR,
    .source = "[V] NVIDIA HGX B200 spec (8 GPUs: FP8 72 PF, BF16 36 PF with "
              "sparsity -> dense 4.5/2.25 PF per GPU) via fibermall "
              "reproduction; 180 GB usable = 1440 GB / 8 (DGX B200 User "
              "Guide); [S/E] TDP 1000 W (glennklockwood, Verda); node overhead "
              "DGX B200 14.3 kW / 8 kW = 1.79 [D]",
    .per_node = 8,
    .fabric = SN_FABRIC_SWITCHED,
    .scaleup_tiers = 1,
    .scaleup_planes = 1,
    .switch_name = "nvlink5-switch",
    .node_overhead = 1.79,
    .board_switches = 2,
    /* HGX B200: FP4 144 PF with sparsity, 72 dense, for 8 GPUs (fibermall
     * reproduction of the NVIDIA HGX table, hardware-catalog.md 2.3) */
    .fp4_flops = 9000 * TF,
    /* two host CPUs per node, as DGX (2 Xeon, hardware-catalog.md 2.1) */
    .host_cpus = 2,
};

static const struct sn_accel_info gb200 = {
    .name = "gb200-nvl72",
    .display = "GB200 (per B200 GPU in NVL72)",
    .vendor = "NVIDIA",
    .bf16_flops = 2500 * TF,
    .fp8_flops = 5000 * TF,
    .hbm_bytes = 186 * GB,
    .hbm_bw = 8.0 * TBS,
    .scaleup_name = "NVLink 5",
    .scaleup_links = 18,
    .scaleup_bw = 900 * GB,
    .tdp_w = 1200,
    .max_domain = 72,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_VENDOR,
    .source =
        "[V] GB200 NVL72 rack 720 PF FP8 / 360 PF BF16 sparse over 72 GPUs -> "
        "dense 5.0/2.5 PF per GPU; 186 GB per GPU (MLCommons "
        "inference_results_v6.1 Crusoe GB200-NVL72 JSON); 1.8 TB/s "
        "bidirectional per GPU; [E] ~1200 W per GPU; 4 GPUs per 1U compute "
        "tray; [V] NVIDIA Domain Power Service docs: GB200 GPU 200-1200 W, "
        "compute tray (2 Grace, 4 GPUs) 6,667 W maximum -> node overhead "
        "6,667 / (4 x 1,200) = 1.39 [D]; the switch trays are counted as "
        "switches",
    .per_node = 4,
    .fabric = SN_FABRIC_SWITCHED,
    .scaleup_tiers = 1,
    .scaleup_planes = 0,
    .switch_name = "nvlink5-switch",
    .node_overhead = 6667.0 / 4800,
    /* GB200 NVL72: FP4 1,440 PF with sparsity over 72 GPUs -> 10 PF dense
     * (hardware-catalog.md 1) */
    .fp4_flops = 10000 * TF,
    /* a compute tray: 2 Grace CPUs and 4 GPUs, each Grace joined to its
     * two GPUs by NVLink-C2C at 900 GB/s bidirectional (DGX GB200 User
     * Guide, hardware; NVIDIA GB200 page via setloop.io) [V]: 225 GB/s
     * per direction per GPU when the two share it evenly [D] */
    .host_cpus = 2,
    .host_bw = 225 * GB,
    .host_link = "NVLink-C2C",
};

static const struct sn_accel_info b300 = {
    .name = "b300-hgx",
    .display = "B300 (HGX B300)",
    .vendor = "NVIDIA",
    .bf16_flops = 2250 * TF,
    .fp8_flops = 4500 * TF,
    .hbm_bytes = 288 * GB,
    .hbm_bw = 8.0 * TBS,
    .scaleup_name = "NVLink 5",
    .scaleup_links = 18,
    .scaleup_bw = 900 * GB,
    .tdp_w = 1100,
    .max_domain = 8,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_VENDOR,
    .source = "[V] NVIDIA HGX B300 spec: FP8 72 PF / BF16 36 PF with sparsity "
              "for 8 GPUs, up to 2.3 TB HBM3e (fibermall reproduction); [S] "
              "Verda blog: dense FP8 4.5 PF, BF16 2.25 PF, 270 GB usable; [E] "
              "max TDP 1.1 kW; node overhead 1.8 as DGX B200 [D]",
    .per_node = 8,
    .fabric = SN_FABRIC_SWITCHED,
    .scaleup_tiers = 1,
    .scaleup_planes = 1,
    .switch_name = "nvlink5-switch",
    .node_overhead = OVERHEAD_8GPU,
    .board_switches = 2,
    /* HGX B300: FP4 108 PF dense for 8 GPUs (fibermall reproduction of the
     * NVIDIA HGX table, hardware-catalog.md 1) */
    .fp4_flops = 13500 * TF,
    /* two host CPUs per node, as DGX (2 Xeon, hardware-catalog.md 2.1) */
    .host_cpus = 2,
};

static const struct sn_accel_info gb300 = {
    .name = "gb300-nvl72",
    .display = "GB300 (per B300 GPU in NVL72)",
    .vendor = "NVIDIA",
    .bf16_flops = 2500 * TF,
    .fp8_flops = 5000 * TF,
    .hbm_bytes = 288 * GB,
    .hbm_bw = 8.0 * TBS,
    .scaleup_name = "NVLink 5",
    .scaleup_links = 18,
    .scaleup_bw = 900 * GB,
    .tdp_w = 1400,
    .max_domain = 72,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_VENDOR,
    .source =
        "[V] GB300 NVL72: 720 PF FP8 / 360 PF BF16 sparse, 20 TB HBM at 576 "
        "TB/s, 130 TB/s NVLink (glennklockwood B300 page); [S] Verda blog: "
        "dense FP8 5 PF, BF16 2.5 PF, 279 GB usable; [E] max TDP 1.4 kW; 4 "
        "GPUs per compute tray; [S] a compute tray draws about 6.6 kW "
        "(Morgan Stanley via epium.com; Introl: ~6.5 kW) -> node overhead "
        "6.6 / 5.6 = 1.18 [D]; the switch trays are counted as switches",
    .per_node = 4,
    .fabric = SN_FABRIC_SWITCHED,
    .scaleup_tiers = 1,
    .scaleup_planes = 0,
    .switch_name = "nvlink5-switch",
    .node_overhead = 6600.0 / 5600,
    /* GB300 NVL72: 1,080 PF dense FP4 over 72 GPUs (glennklockwood B300
     * page, hardware-catalog.md 1) */
    .fp4_flops = 15000 * TF,
    /* a compute tray: 2 Grace CPUs and 4 GPUs, each Grace joined to its
     * two GPUs by NVLink-C2C at 900 GB/s bidirectional (DGX GB200 User
     * Guide, hardware; NVIDIA GB200 page via setloop.io) [V]: 225 GB/s
     * per direction per GPU when the two share it evenly [D] */
    .host_cpus = 2,
    .host_bw = 225 * GB,
    .host_link = "NVLink-C2C",
};

static const struct sn_accel_info mi300x = {
    .name = "mi300x",
    .display = "MI300X",
    .vendor = "AMD",
    .bf16_flops = 1307.4 * TF,
    .fp8_flops = 2614.9 * TF,
    .hbm_bytes = 192 * GB,
    .hbm_bw = 5.3 * TBS,
    .scaleup_name = "Infinity Fabric (xGMI)",
    .scaleup_links = 7,
    .scaleup_bw = 448 * GB,
    .tdp_w = 750,
    .max_domain = 8,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_VENDOR,
    .source =
        "[V] AMD MI300X spec values (1307.4 TFLOPS BF16 dense, 2614.9 FP8 "
        "dense, 192 GB HBM3 at 5.3 TB/s, 750 W) as reproduced by "
        "awesomeagents.ai and codesota.com; Azure ND MI300X v5 docs: Infinity "
        "Fabric links 128 GB/s bidirectional each, 896 GB/s aggregate -> [D] 7 "
        "x 64 = 448 GB/s per direction; 8-GPU full mesh on the UBB baseboard; "
        "node overhead 1.8 [E, by analogy with DGX]",
    .per_node = 8,
    .fabric = SN_FABRIC_FULL_MESH,
    .scaleup_tiers = 1,
    .scaleup_planes = 0,
    .switch_name = NULL,
    .node_overhead = OVERHEAD_8GPU,
    /* AMD: "each xGMI link is 64 GB/s peak, 48 GB/s usable after
     * overheads" (ROCm/rccl issue #1210, AMD staff); TransferBench reads
     * 45-47 GB/s per link (ROCm blog, RCCL and xGMI on MI300X) [V] */
    .scaleup_eff = 48.0 / 64.0,
    /* two host CPUs per 8-accelerator server (MLCommons 8xMI300X_2xEPYC
     * system; Dell XE9680, Supermicro 8-GPU platforms) [V/S] */
    .host_cpus = 2,
};

static const struct sn_accel_info mi325x = {
    .name = "mi325x",
    .display = "MI325X",
    .vendor = "AMD",
    .bf16_flops = 1307.4 * TF,
    .fp8_flops = 2614.9 * TF,
    .hbm_bytes = 256 * GB,
    .hbm_bw = 6.0 * TBS,
    .scaleup_name = "Infinity Fabric (xGMI)",
    .scaleup_links = 7,
    .scaleup_bw = 448 * GB,
    .tdp_w = 1000,
    .max_domain = 8,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_SECONDARY,
    .source = "[S] awesomeagents.ai MI325X (1307.4 BF16, 2614.9 FP8 dense; 256 "
              "GB HBM3e; 6 TB/s; 1000 W); wiaix.com (7 Infinity Fabric links, "
              "8-GPU UBB 2.0 platform); [D] per-direction link bandwidth as "
              "MI300X; node overhead 1.8 [E]",
    .per_node = 8,
    .fabric = SN_FABRIC_FULL_MESH,
    .scaleup_tiers = 1,
    .scaleup_planes = 0,
    .switch_name = NULL,
    .node_overhead = OVERHEAD_8GPU,
    /* AMD: "each xGMI link is 64 GB/s peak, 48 GB/s usable after
     * overheads" (ROCm/rccl issue #1210, AMD staff); TransferBench reads
     * 45-47 GB/s per link (ROCm blog, RCCL and xGMI on MI300X) [V] */
    .scaleup_eff = 48.0 / 64.0,
    /* two host CPUs per 8-accelerator server (MLCommons 8xMI300X_2xEPYC
     * system; Dell XE9680, Supermicro 8-GPU platforms) [V/S] */
    .host_cpus = 2,
};

static const struct sn_accel_info mi355x = {
    .name = "mi355x",
    .display = "MI355X",
    .vendor = "AMD",
    .bf16_flops = 2500 * TF,
    .fp8_flops = 5000 * TF,
    .hbm_bytes = 288 * GB,
    .hbm_bw = 8.0 * TBS,
    .scaleup_name = "Infinity Fabric (4th gen)",
    .scaleup_links = 7,
    .scaleup_bw = 537.6 * GB,
    .tdp_w = 1400,
    .max_domain = 8,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_SECONDARY,
    .source =
        "[S] The Register 2025-06-12 and Tom's Hardware (1400 W, 288 GB HBM3E, "
        "8 TB/s); rooflinenotes.dev (BF16 2.5 PF); ISSCC 2026 coverage (FP8 5 "
        "PF); [E] 153.6 GB/s bidirectional per link x 7 -> 537.6 GB/s per "
        "direction; scale-up domain 8; node overhead 1.8 [E]",
    .per_node = 8,
    .fabric = SN_FABRIC_FULL_MESH,
    .scaleup_tiers = 1,
    .scaleup_planes = 0,
    .switch_name = NULL,
    .node_overhead = OVERHEAD_8GPU,
    /* AMD: "each xGMI link is 64 GB/s peak, 48 GB/s usable after
     * overheads" (ROCm/rccl issue #1210, AMD staff); TransferBench reads
     * 45-47 GB/s per link (ROCm blog, RCCL and xGMI on MI300X) [V] */
    .scaleup_eff = 48.0 / 64.0,
    /* two host CPUs per 8-accelerator server (MLCommons 8xMI300X_2xEPYC
     * system; Dell XE9680, Supermicro 8-GPU platforms) [V/S] */
    .host_cpus = 2,
};

static const struct sn_accel_info gaudi3 = {
    .name = "gaudi3-oam",
    .display = "Gaudi 3 (OAM)",
    .vendor = "Intel",
    .bf16_flops = 1835 * TF,
    .fp8_flops = 1835 * TF,
    .hbm_bytes = 128 * GB,
    .hbm_bw = 3.67 * TBS,
    .scaleup_name = "RoCE v2 over 200GbE (integrated NICs)",
    .scaleup_links = 21,
    .scaleup_bw = 525 * GB,
    .tdp_w = 900,
    .max_domain = 8,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_VENDOR,
    .source =
        "[V] Intel Hot Chips 2024 Gaudi 3 slides (R. Kaplan): 1835 BF16/FP8 "
        "TFLOPS, 128 GB HBM2e, 3.67 TB/s, 900 W air / 1200 W liquid; Intel "
        "Gaudi docs 'Network Configuration': 21 scale-up ports (3 per peer, "
        "all-to-all of 8), 525 GB/s unidirectional; node overhead 1.8 [E]",
    .per_node = 8,
    .fabric = SN_FABRIC_FULL_MESH,
    .scaleup_tiers = 1,
    .scaleup_planes = 0,
    .switch_name = NULL,
    .node_overhead = OVERHEAD_8GPU,
    /* the scale-up ports are 200GbE RoCE v2 NICs: the share a NIC moves
     * as payload, as the scale-out class (48.5 of 50 GB/s, SimAI
     * calbusbw.h); RoCE v2 at MTU 4096 carries 4096 of 4174 bytes on
     * the wire, 0.98 [D] */
    .scaleup_eff = 48.5 / 50.0,
    /* two host CPUs per 8-accelerator server (MLCommons 8xMI300X_2xEPYC
     * system; Dell XE9680, Supermicro 8-GPU platforms) [V/S] */
    .host_cpus = 2,
};

static const struct sn_accel_info ascend910b = {
    .name = "ascend-910b",
    .display = "Ascend 910B",
    .vendor = "Huawei",
    .bf16_flops = 376 * TF,
    .fp8_flops = 0,
    .hbm_bytes = 64 * GB,
    .hbm_bw = 1.6 * TBS,
    .scaleup_name = "HCCS",
    .scaleup_links = 7,
    .scaleup_bw = 196 * GB,
    .tdp_w = 400,
    .max_domain = 8,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_ESTIMATE,
    .source = "[E] no primary Huawei datasheet found; third-party figures vary "
              "by SKU (280-414 TFLOPS FP16, 310-400 W, 64 GB); 376 TFLOPS and "
              "1.6 TB/s taken as one 910C die (arXiv:2506.12708); HCCS 7 links "
              "in an 8-NPU full mesh, 392 GB/s cited with unclear direction -> "
              "196 per direction assumed; no FP8; node overhead 1.8 [E]",
    .per_node = 8,
    .fabric = SN_FABRIC_FULL_MESH,
    .scaleup_tiers = 1,
    .scaleup_planes = 0,
    .switch_name = NULL,
    .node_overhead = OVERHEAD_8GPU,
    /* Atlas 800T A2: 4 Kunpeng 920 CPUs (cn-catalog.md 3, count [?]) [S] */
    .host_cpus = 4,
};

static const struct sn_accel_info ascend910c = {
    .name = "ascend-910c",
    .display = "Ascend 910C",
    .vendor = "Huawei",
    .bf16_flops = 752 * TF,
    .fp8_flops = 0,
    .hbm_bytes = 128 * GB,
    .hbm_bw = 3.2 * TBS,
    .scaleup_name = "Unified Bus (UB)",
    .scaleup_links = 14,
    .scaleup_bw = 392 * GB,
    .tdp_w = 750,
    .max_domain = 384,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_VENDOR,
    .source =
        "[V] Zuo et al. 'Serving Large Language Models on Huawei "
        "CloudMatrix384' arXiv:2506.12708: dual-die 752 TFLOPS BF16, 128 GB, "
        "3.2 TB/s, UB >392 GB/s unidirectional per NPU, 384-NPU supernode of "
        "48 nodes with 7 on-board L1 UB switches each; [S] 14 UB links per NPU "
        "(besthub.dev summary of the paper: fourteen interfaces), i.e. 2 per "
        "plane at 28 GB/s [D] (the reference CSV's 7 links is an [E] of one "
        "per plane); TDP not published: [E] 750 W, two 910B-class dies of "
        "310-400 W (boardor, ArthurChiao) with 8 HBM stacks; no FP8; node "
        "overhead 1.8 [E] with the 4 Kunpeng CPUs and 7 L1 UB switches on "
        "the board",
    .per_node = 8,
    .fabric = SN_FABRIC_SWITCHED,
    .scaleup_tiers = 2,
    .scaleup_planes = 7,
    .switch_name = "ub-switch",
    .node_overhead = OVERHEAD_8GPU,
    /* 4 Kunpeng CPUs per 8-NPU node: 192 in CloudMatrix 384 (Zuo et al.,
     * arXiv:2506.12708) [V] */
    .host_cpus = 4,
};

static const struct sn_accel_info tpuv5p = {
    .name = "tpu-v5p",
    .display = "TPU v5p",
    .vendor = "Google",
    .bf16_flops = 459 * TF,
    .fp8_flops = 459 * TF,
    .hbm_bytes = 95 * GB,
    .hbm_bw = 2.765 * TBS,
    .scaleup_name = "ICI (3D torus)",
    .scaleup_links = 6,
    .scaleup_bw = 600 * GB,
    .tdp_w = 450,
    .max_domain = 8960,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_VENDOR,
    .source = "[V] cloud.google.com/tpu/docs/v5p and v5p-training: 459 TFLOPS "
              "BF16 (FP8 also listed 459), 95 GB HBM2e, 2765 GBps, ICI 1200 "
              "GBps bidirectional per chip, 3D torus, 8960-chip pod, 4 chips "
              "per host; [D] 6 torus links, 600 GB/s per direction; power not "
              "published (heise: Google conceals it): [E] 450 W, about twice "
              "TPU v4's ~200 W for twice its FLOPS and three times its HBM; "
              "node overhead 1.8 [E]",
    .per_node = 4,
    .fabric = SN_FABRIC_TORUS,
    .scaleup_tiers = 1,
    .scaleup_planes = 0,
    .switch_name = NULL,
    .node_overhead = OVERHEAD_8GPU,
};

static const struct sn_accel_info tpuv6e = {
    .name = "tpu-v6e",
    .display = "TPU v6e (Trillium)",
    .vendor = "Google",
    .bf16_flops = 918 * TF,
    .fp8_flops = 0,
    .hbm_bytes = 32 * GB,
    .hbm_bw = 1.638 * TBS,
    .scaleup_name = "ICI (2D torus)",
    .scaleup_links = 4,
    .scaleup_bw = 400 * GB,
    .tdp_w = 400,
    .max_domain = 256,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_VENDOR,
    .source = "[V] docs.cloud.google.com/tpu/docs/v6e: 918 TFLOPS BF16, no FP8 "
              "listed, 32 GB, 1638 GBps, ICI 800 GBps bidirectional over 4 "
              "ports, 2D torus, 256-chip pod, 8 chips per host; [D] 400 GB/s "
              "per direction; power not published: [E] 400 W, 918 TFLOPS at "
              "the ~2.3 TFLOPS/W of its contemporaries (B200: 2.25 PF at 1 "
              "kW); node overhead 1.8 [E]",
    .per_node = 8,
    .fabric = SN_FABRIC_TORUS,
    .scaleup_tiers = 1,
    .scaleup_planes = 0,
    .switch_name = NULL,
    .node_overhead = OVERHEAD_8GPU,
};


/* ---- China-market parts (reference/cn-catalog.md, marks as there) ----- */

static const struct sn_accel_info h20 = {
    .name = "h20-sxm",
    .display = "H20 (HGX SXM)",
    .vendor = "NVIDIA",
    .bf16_flops = 148 * TF,
    .fp8_flops = 296 * TF,
    .hbm_bytes = 96 * GB,
    .hbm_bw = 4.0 * TBS,
    .scaleup_name = "NVLink 4",
    .scaleup_links = 18,
    .scaleup_bw = 450 * GB,
    .tdp_w = 400,
    .max_domain = 8,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_SECONDARY,
    .source = "[S] Tom's Hardware (H20, L20 and L2 for China; table from the "
              "Vipera listings), TweakTown (400 W, 8-way HGX, 900 GB/s NVLink) "
              "and ArthurChiao's data-sheet notes: 148 TFLOPS BF16 and 296 FP8 "
              "dense, 96 GB HBM3 at 4.0 TB/s; [D] 18 NVLink 4 links x 25 GB/s "
              "per direction = 900 GB/s bidirectional; HGX board as H100 (4 "
              "NVSwitch chips, 2 host CPUs) [E]; node overhead: the DGX H100 "
              "system's 3.0 kW beside its GPUs over 8 x 400 W [D/E]",
    .per_node = 8,
    .fabric = SN_FABRIC_SWITCHED,
    .scaleup_tiers = 1,
    .scaleup_planes = 1,
    .switch_name = "nvswitch-gen3",
    /* the DGX H100's 10.2 kW less its 8 x 700 W GPUs is 4.6 kW of host,
     * NICs, fans and switches; over 8 x 400 W: 1 + 4.6/3.2 */
    .node_overhead = 1 + 4.6 / 3.2,
    .board_switches = 4,
    .host_cpus = 2,
};

static const struct sn_accel_info h800 = {
    .name = "h800-sxm5",
    .display = "H800 SXM5",
    .vendor = "NVIDIA",
    .bf16_flops = 989.4 * TF,
    .fp8_flops = 1978.9 * TF,
    .hbm_bytes = 80 * GB,
    .hbm_usable_bytes = 81559 * MIB,
    .hbm_bw = 3.35 * TBS,
    .scaleup_name = "NVLink 4",
    .scaleup_links = 8,
    .scaleup_bw = 200 * GB,
    .tdp_w = 700,
    .max_domain = 8,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_SECONDARY,
    .source = "[S] ArthurChiao's data-sheet notes: H100 compute and memory "
              "with NVLink cut to 400 GB/s bidirectional; aiwiki (launched "
              "2023-03-21, banned from 2023-10-17); [D] 8 NVLink 4 links x 25 "
              "GB/s per direction; SimAI's H800 constants (8 links, NVLS 215 "
              "GB/s) agree; [E] the HGX board's 4 NVSwitch chips, 2 links to "
              "each; node overhead as DGX H100",
    .per_node = 8,
    .fabric = SN_FABRIC_SWITCHED,
    .scaleup_tiers = 1,
    .scaleup_planes = 1,
    .switch_name = "nvswitch-gen3",
    .node_overhead = 1.82,
    .board_switches = 4,
    .host_cpus = 2,
};

static const struct sn_accel_info a800 = {
    .name = "a800-sxm4-80gb",
    .display = "A800-SXM4-80GB",
    .vendor = "NVIDIA",
    .bf16_flops = 312 * TF,
    .fp8_flops = 0,
    .hbm_bytes = 80 * GB,
    .hbm_usable_bytes = 81920 * MIB,
    .hbm_bw = 2.039 * TBS,
    .scaleup_name = "NVLink 3",
    .scaleup_links = 8,
    .scaleup_bw = 200 * GB,
    .tdp_w = 400,
    .max_domain = 8,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_SECONDARY,
    .source = "[S] tweakers.net 203182 and ArthurChiao's data-sheet notes: "
              "A100 with NVLink cut from 600 to 400 GB/s bidirectional, 400 W "
              "SXM; [D] 8 NVLink 3 links x 25 GB/s per direction; no FP8; [E] "
              "how the 8 links meet the HGX board's NVSwitch chips is not "
              "published: the fewest 36-port chips that take them; node "
              "overhead 1.8 as DGX A100",
    .per_node = 8,
    .fabric = SN_FABRIC_SWITCHED,
    .scaleup_tiers = 1,
    .scaleup_planes = 1,
    .switch_name = "nvswitch-gen2",
    .node_overhead = OVERHEAD_8GPU,
    .host_cpus = 2,
};

static const struct sn_accel_info l20 = {
    .name = "l20-pcie",
    .display = "L20 PCIe",
    .vendor = "NVIDIA",
    .bf16_flops = 119.5 * TF,
    .fp8_flops = 239 * TF,
    .hbm_bytes = 48 * GB,
    .hbm_bw = 0.864 * TBS,
    .scaleup_name = "PCIe Gen4 x16",
    .scaleup_links = 1,
    /* PCIe 4.0 x16: 16 GT/s x 16 lanes x 128b/130b / 8 = 31.5 GB/s */
    .scaleup_bw = 31.5 * GB,
    .tdp_w = 275,
    .max_domain = 8,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_SECONDARY,
    .source = "[S] Tom's Hardware (H20, L20 and L2 for China) and "
              "ArthurChiao's data-sheet notes: 119.5 TFLOPS BF16 dense, 239 "
              "FP8, 48 GB GDDR6 (no HBM) at 864 GB/s, 275 W, PCIe Gen4 x16 "
              "only (no NVLink); peer-to-peer over the server's PCIe switches "
              "(8 cards a server assumed [E]); node overhead 1.8 [E]",
    .per_node = 8,
    .fabric = SN_FABRIC_PCIE_TREE,
    .scaleup_tiers = 1,
    .scaleup_planes = 0,
    .switch_name = NULL,
    .node_overhead = OVERHEAD_8GPU,
    .host_cpus = 2,
};

/* Ascend 910B by SoC: AI cores from the CANN SoC names as HAMi's device
 * table lists them (Project-HAMi charts/hami device-configmap.yaml) and
 * the DaVinci cube of 16x16x16 FP16 MACs, 8,192 FLOP a cycle a core;
 * Huawei publishes no clock, 1.8 GHz is taken [E] (cn-catalog.md 2). */
#define DAVINCI(cores) ((cores) * 8192.0 * 1.8e9)
#define ASCEND910B(nm, key, disp, cores, hbm, src)                             \
    static const struct sn_accel_info nm = {                                   \
        .name = key,                                                           \
        .display = disp,                                                       \
        .vendor = "Huawei",                                                    \
        .bf16_flops = DAVINCI(cores),                                          \
        .fp8_flops = 0,                                                        \
        .hbm_bytes = (hbm)*GB,                                                 \
        .hbm_bw = 1.6 * TBS,                                                   \
        .scaleup_name = "HCCS",                                                \
        .scaleup_links = 7,                                                    \
        .scaleup_bw = 196 * GB,                                                \
        .tdp_w = 400,                                                          \
        .max_domain = 8,                                                       \
        .transient_factor = TRANSIENT,                                         \
        .confidence = SN_CONF_ESTIMATE,                                        \
        .source = src,                                                         \
        .per_node = 8,                                                         \
        .fabric = SN_FABRIC_FULL_MESH,                                         \
        .scaleup_tiers = 1,                                                    \
        .node_overhead = OVERHEAD_8GPU,                                        \
        .host_cpus = 4,                                                        \
    }
#define ASCEND910B_SRC                                                         \
    " [E] FLOPS = AI cores x 8,192 FLOP a cycle x 1.8 GHz (no clock is "       \
    "published; third parties quote 280-414 TFLOPS by SKU); 1.6 TB/s as one "  \
    "910C die [D]; HCCS: 7 links in the Atlas 800T A2's 8-NPU full mesh, "     \
    "392 GB/s bidirectional (ArthurChiao) -> 196 per direction; 400 W "        \
    "(ArthurChiao; boardor: 310 W) [S]; no FP8"

ASCEND910B(ascend910b2, "ascend-910b2", "Ascend 910B2", 24, 64,
           "[V-ish] HAMi device table: 910B2, 24 AI cores, 64 GB;"
           ASCEND910B_SRC);
ASCEND910B(ascend910b3, "ascend-910b3", "Ascend 910B3", 20, 64,
           "[V-ish] HAMi device table: 910B3, 20 AI cores, 64 GB;"
           ASCEND910B_SRC);
ASCEND910B(ascend910b4, "ascend-910b4", "Ascend 910B4", 20, 32,
           "[V-ish] HAMi device table: 910B4, 20 AI cores, 32 GB (910B4-1: "
           "64 GB);" ASCEND910B_SRC);

/* Huawei Connect 2025 roadmap (Eric Xu's keynote, 2025-09-18, as relayed
 * by several outlets; cn-catalog.md 2): FP8 and FP4 rates, memory, UB
 * bandwidth per chip. No BF16 rate and no TDP were given. */
#define ASCEND_ROADMAP_SRC                                                     \
    " [E] BF16 at half the FP8 rate (Ascend has doubled its rate per halving " \
    "of precision); the UB figure read as bidirectional, as 910C's 784 GB/s " \
    "is 2 x 392 [D], so half of it per direction [E]; no TDP published: [E] " \
    "1 kW, twice the 910C's FP8-class rate on a newer process, liquid-cooled " \
    "SuperPoDs; 8 a node, 14 UB links (as 910C), 2 switch tiers and 1.8 "  \
    "node overhead as 910C [E]"

static const struct sn_accel_info ascend950pr = {
    .name = "ascend-950pr",
    .display = "Ascend 950PR (roadmap, Q1 2026)",
    .vendor = "Huawei",
    .bf16_flops = 500 * TF,
    .fp8_flops = 1000 * TF,
    .fp4_flops = 2000 * TF,
    .hbm_bytes = 128 * GB,
    .hbm_bw = 1.6 * TBS,
    .scaleup_name = "Unified Bus 2.0",
    .scaleup_links = 14,
    .scaleup_bw = 1000 * GB,
    .tdp_w = 1000,
    .max_domain = 8192,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_VENDOR,
    .source = "[V] Huawei Connect 2025 keynote: 1 PFLOPS FP8 (MXFP8/HiF8), 2 "
              "PFLOPS MXFP4, 128 GB HiBL 1.0 in-house HBM at 1.6 TB/s, 2 TB/s "
              "UB per chip (2.5x 910C), Q1 2026;" ASCEND_ROADMAP_SRC,
    .per_node = 8,
    .fabric = SN_FABRIC_SWITCHED,
    .scaleup_tiers = 2,
    .scaleup_planes = 0,
    .switch_name = "ub2-switch",
    .node_overhead = OVERHEAD_8GPU,
    .host_cpus = 4,
    .roadmap = true,
};

static const struct sn_accel_info ascend950dt = {
    .name = "ascend-950dt",
    .display = "Ascend 950DT (roadmap, Q4 2026)",
    .vendor = "Huawei",
    .bf16_flops = 500 * TF,
    .fp8_flops = 1000 * TF,
    .fp4_flops = 2000 * TF,
    .hbm_bytes = 144 * GB,
    .hbm_bw = 4.0 * TBS,
    .scaleup_name = "Unified Bus 2.0",
    .scaleup_links = 14,
    .scaleup_bw = 1000 * GB,
    .tdp_w = 1000,
    .max_domain = 8192,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_VENDOR,
    .source = "[V] Huawei Connect 2025 keynote: the 950PR's die with 144 GB "
              "HiZQ 2.0 at 4 TB/s, 2 TB/s UB, Q4 2026; 8,192 in the Atlas 950 "
              "SuperPoD;" ASCEND_ROADMAP_SRC,
    .per_node = 8,
    .fabric = SN_FABRIC_SWITCHED,
    .scaleup_tiers = 2,
    .scaleup_planes = 0,
    .switch_name = "ub2-switch",
    .node_overhead = OVERHEAD_8GPU,
    .host_cpus = 4,
    .roadmap = true,
};

static const struct sn_accel_info ascend960 = {
    .name = "ascend-960",
    .display = "Ascend 960 (roadmap, Q4 2027)",
    .vendor = "Huawei",
    .bf16_flops = 1000 * TF,
    .fp8_flops = 2000 * TF,
    .fp4_flops = 4000 * TF,
    .hbm_bytes = 288 * GB,
    .hbm_bw = 9.6 * TBS,
    .scaleup_name = "Unified Bus 2.0",
    .scaleup_links = 14,
    .scaleup_bw = 1100 * GB,
    .tdp_w = 1000,
    .max_domain = 15488,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_SECONDARY,
    .source = "[S] Huawei Connect 2025 summaries: 2 PFLOPS FP8, 4 PFLOPS "
              "HiF4, 288 GB at 9.6 TB/s, 2.2 TB/s UB (ports doubled), Q4 "
              "2027, 15,488 in the Atlas 960 SuperPoD ([D] 34 PB/s / 15,488 "
              "= 2.2 TB/s agrees);" ASCEND_ROADMAP_SRC,
    .per_node = 8,
    .fabric = SN_FABRIC_SWITCHED,
    .scaleup_tiers = 2,
    .scaleup_planes = 0,
    .switch_name = "ub2-switch",
    .node_overhead = OVERHEAD_8GPU,
    .host_cpus = 4,
    .roadmap = true,
};

static const struct sn_accel_info ascend970 = {
    .name = "ascend-970",
    .display = "Ascend 970 (roadmap, Q4 2028)",
    .vendor = "Huawei",
    .bf16_flops = 2000 * TF,
    .fp8_flops = 4000 * TF,
    .fp4_flops = 8000 * TF,
    .hbm_bytes = 288 * GB,
    .hbm_bw = 14.4 * TBS,
    .scaleup_name = "Unified Bus 2.0",
    .scaleup_links = 14,
    .scaleup_bw = 2000 * GB,
    .tdp_w = 1000,
    .max_domain = 15488,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_ESTIMATE,
    .source = "[S] Huawei Connect 2025 summaries (specifications still being "
              "finalised): 4 PFLOPS FP8, 8 PFLOPS FP4, 14.4 TB/s, 4 TB/s UB, "
              "Q4 2028; [E] memory not given: 288 GB as the 960; domain as "
              "the 960;" ASCEND_ROADMAP_SRC,
    .per_node = 8,
    .fabric = SN_FABRIC_SWITCHED,
    .scaleup_tiers = 2,
    .scaleup_planes = 0,
    .switch_name = "ub2-switch",
    .node_overhead = OVERHEAD_8GPU,
    .host_cpus = 4,
    .roadmap = true,
};

static const struct sn_accel_info mlu370 = {
    .name = "mlu370-x8",
    .display = "Cambricon MLU370-X8",
    .vendor = "Cambricon",
    .bf16_flops = 96 * TF,
    .fp8_flops = 0,
    .hbm_bytes = 48 * GB,
    .hbm_bw = 0.6144 * TBS,
    .scaleup_name = "MLU-Link",
    .scaleup_links = 1,
    .scaleup_bw = 100 * GB,
    .tdp_w = 250,
    .max_domain = 8,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_VENDOR,
    .source = "[V] Cambricon launch release (2022-03, via press): 96 TFLOPS "
              "FP16, 48 GB LPDDR5 at 614.4 GB/s (not HBM), MLU-Link 200 GB/s "
              "a card, 250 W; a 4-card bridge joins 8 chips in a full mesh; "
              "[E] 200 GB/s read as bidirectional (100 per direction) and the "
              "bridge as one switch-like link a card; node overhead 1.8",
    .per_node = 8,
    .fabric = SN_FABRIC_PCIE_TREE,
    .scaleup_tiers = 1,
    .node_overhead = OVERHEAD_8GPU,
    .host_cpus = 2,
};

static const struct sn_accel_info mtts4000 = {
    .name = "mtt-s4000",
    .display = "Moore Threads MTT S4000",
    .vendor = "Moore Threads",
    .bf16_flops = 100 * TF,
    .fp8_flops = 0,
    .hbm_bytes = 48 * GB,
    .hbm_bw = 0.768 * TBS,
    .scaleup_name = "MTLink 1.0",
    .scaleup_links = 1,
    .scaleup_bw = 120 * GB,
    .tdp_w = 450,
    .max_domain = 8,
    .transient_factor = TRANSIENT,
    .confidence = SN_CONF_SECONDARY,
    .source = "[S] io-tech.fi, tweakpc, itbear (MDC 2025 recap): 100 TFLOPS "
              "FP16/BF16, 48 GB GDDR6 384-bit at 768 GB/s, MTLink 1.0 240 GB/s, "
              "PCIe 5 x16, 450 W; KUAE MCCX D800 = 8 x S4000 a server; [E] "
              "240 GB/s read as bidirectional; node overhead 1.8",
    .per_node = 8,
    .fabric = SN_FABRIC_PCIE_TREE,
    .scaleup_tiers = 1,
    .node_overhead = OVERHEAD_8GPU,
    .host_cpus = 2,
};

static const struct sn_accel_info *const accels[] = {
    &a100,        &h100,        &h200,        &b200,        &gb200,
    &b300,        &gb300,       &mi300x,      &mi325x,      &mi355x,
    &gaudi3,      &ascend910b,  &ascend910c,  &tpuv5p,      &tpuv6e,
    &h20,         &h800,        &a800,        &l20,         &ascend910b2,
    &ascend910b3, &ascend910b4, &ascend950pr, &ascend950dt, &ascend960,
    &ascend970,   &mlu370,      &mtts4000,
};

/* ---- switch chips (scale-up) and switch boxes (scale-out) ------------ */

static const struct sn_switch_info nvswitch2 = {
    .name = "nvswitch-gen2",
    .display = "NVSwitch (2nd gen)",
    .vendor = "NVIDIA",
    .scale_up = true,
    .radix = 36,
    .port_bw = 25 * GB,
    .power_w = 120,
    .in_network_reduction = false,
    .latency = 0,
    .chips_per_box = 6,
    .rack_units = 0,
    .confidence = SN_CONF_ESTIMATE,
    .source =
        "[E] 36 NVLink 3 ports per chip and 6 chips on the HGX A100 baseboard, "
        "each GPU's 12 links 2 to each (NVIDIA Fabric Manager User Guide, "
        "NVLink topology tables, via openfabric-systems/simllm notes); NVLink 3 "
        "link 25 GB/s per direction; no in-switch reduction before the third "
        "generation; [E] 120 W per chip, scaled from the first generation's "
        "~100 W at twice the ports on a newer node (no NVIDIA figure "
        "published); latency not published",
};

static const struct sn_switch_info nvswitch3 = {
    .name = "nvswitch-gen3",
    .display = "NVSwitch (3rd gen)",
    .vendor = "NVIDIA",
    .scale_up = true,
    .radix = 64,
    .port_bw = 25 * GB,
    .power_w = 250,
    .in_network_reduction = true,
    .latency = 0,
    .chips_per_box = 2,
    .rack_units = 1,
    .confidence = SN_CONF_VENDOR,
    .source =
        "[V] NVIDIA developer blog 'Upgrading Multi-GPU Interconnectivity with "
        "the Third-Generation NVSwitch': NVLink 4 ports, multicast and SHARP "
        "in-network reductions, NVLink Switch System of up to 256 GPUs; [S] 64 "
        "NVLink ports per chip (pcgamer, Hot Chips 2022 coverage); NVLink 4 "
        "link 25 GB/s per direction; [S] the NVLink Switch is a 1U box of 2 "
        "chips; 4 chips on an HGX H100 board, each GPU's 18 links split 5/4/4/5 "
        "(Fabric Manager User Guide via simllm notes); [E] 250 W per chip: 25.6 "
        "Tb/s at 8-10 pJ/bit (no NVIDIA figure published), inside the DGX H100 "
        "10.2 kW system figure on the board; latency not published",
};

static const struct sn_switch_info nvlink5sw = {
    .name = "nvlink5-switch",
    .display = "NVLink 5 Switch (NVL72 generation)",
    .vendor = "NVIDIA",
    .scale_up = true,
    .radix = 72,
    .port_bw = 50 * GB,
    .power_w = 400,
    .in_network_reduction = true,
    .latency = 0,
    .chips_per_box = 2,
    .rack_units = 1,
    .confidence = SN_CONF_VENDOR,
    .source =
        "[V] NVIDIA Mission Control/BCM docs: 9 NVLink switch trays per NVL72 "
        "rack; [S] setloop.io: 2 NVLink 5 ASICs per 1U tray; [D] 72 GPUs x 18 "
        "links = 1296 = 18 chips x 72 ports, consistent with 144 ports per "
        "tray; NVLink 5 link 50 GB/s per direction; SHARP in-network reduction; "
        "[E] 400 W per chip with its share of the tray (0.8 kW a tray: 57.6 "
        "Tb/s a chip at 5-7 pJ/bit plus tray management; Introl lists 0.4 kW a "
        "tray, and the NVL72 rack's remainder after 18 compute trays at 6,667 W "
        "bounds it near 1.3 kW); latency not published",
};

static const struct sn_switch_info ubswitch = {
    .name = "ub-switch",
    .display = "Huawei Unified Bus switch",
    .vendor = "Huawei",
    .scale_up = true,
    .radix = 48,
    .port_bw = 28 * GB,
    .power_w = 150,
    .in_network_reduction = false,
    .latency = 0,
    .chips_per_box = 1,
    .rack_units = 0,
    .confidence = SN_CONF_ESTIMATE,
    .source =
        "[E] CloudMatrix384 (arXiv:2506.12708 via emergentmind and "
        "chinaresearchcollective summaries): 7 L1 UB switches per node with 16 "
        "NPU-facing and 16 L2-facing links, 7 planes x 16 L2 switches; 48 ports "
        "= one per node's L1 chip of the plane [D]; 28 GB/s per link = 392 GB/s "
        "/ 14 [D]; [E] 150 W per chip: about 14 Tb/s switched at 8-10 pJ/bit, "
        "no Huawei figure published; reduction and latency not published",
};

static const struct sn_switch_info ub2switch = {
    .name = "ub2-switch",
    .display = "Huawei Unified Bus 2.0 switch (roadmap)",
    .vendor = "Huawei",
    .scale_up = true,
    .radix = 128,
    .port_bw = 150 * GB,
    .power_w = 400,
    .in_network_reduction = false,
    .latency = 0,
    .chips_per_box = 1,
    .rack_units = 2,
    .confidence = SN_CONF_ESTIMATE,
    .source = "[E] Huawei Connect 2025: UB 2.0 (spec opened 2025-09) joins "
              "8,192 Ascend 950 in one SuperPoD over an all-optical fabric; "
              "UB-Mesh (arXiv:2503.20377) names low- and high-radix UB "
              "switches; no chip figures are published: 128 ports of up to "
              "150 GB/s, 400 W and 2U a switch are assumptions for planning",
};

static const struct sn_switch_info qm9700 = {
    .name = "qm9700",
    .display = "NVIDIA Quantum-2 QM9700",
    .vendor = "NVIDIA",
    .scale_up = false,
    .radix = 64,
    .port_bw = 400 * GBPS,
    .power_w = 747,
    .in_network_reduction = true,
    .latency = 0,
    .chips_per_box = 1,
    .rack_units = 1,
    .confidence = SN_CONF_VENDOR,
    .source =
        "[V] QM9700/QM9790 1U NDR 400Gb/s InfiniBand switch user manual: 32 "
        "OSFP cages of 2 logical 400 Gb/s ports = 64 ports, 1U; SHARPv3 "
        "in-network reduction (Quantum-2); DGX SuperPOD H100 RA compute fabric "
        "switch; [V via S] 747 W typical with passive cables, 1.72 kW maximum "
        "with active optics (the manual's specifications as quoted in the "
        "Rackula project's research notes): the box without its optics, which "
        "are counted per transceiver; latency not re-read",
};

static const struct sn_switch_info q3400 = {
    .name = "quantum-x800-q3400",
    .display = "NVIDIA Quantum-X800 Q3400",
    .vendor = "NVIDIA",
    .scale_up = false,
    .radix = 144,
    .port_bw = 800 * GBPS,
    .power_w = 2500,
    .in_network_reduction = true,
    .latency = 0,
    .chips_per_box = 1,
    .rack_units = 4,
    .confidence = SN_CONF_VENDOR,
    .source =
        "[V] DGX SuperPOD B300 XDR RA: Quantum-X800 switches, two-tier limit "
        "10,368 endpoints = 144 x 72 -> 144 ports of 800 Gb/s; SHARPv4; [S] 4U; "
        "[E] 2.5 kW without optics (no NVIDIA figure found; 72 x 25 W 1.6T "
        "modules add 1.8 kW, counted per transceiver); latency not re-read",
};

static const struct sn_switch_info th5 = {
    .name = "th5-64x800g",
    .display = "51.2T switch, 64 x 800G (Tomahawk 5 class)",
    .vendor = "Broadcom",
    .scale_up = false,
    .radix = 64,
    .port_bw = 800 * GBPS,
    .power_w = 1000,
    .in_network_reduction = false,
    .latency = 0,
    .chips_per_box = 1,
    .rack_units = 2,
    .confidence = SN_CONF_SECONDARY,
    .source =
        "[S] NextPlatform 2024-04-09: Gaudi 3 reference leaf is a Broadcom "
        "Tomahawk 5 switch with 64 x 800G ports; Juniper QFX5240-64OD: 64 OSFP "
        "800G ports; [E] 2U box; no in-network reduction; [E] 1.0 kW without "
        "optics, by the NVIDIA SN5610 of the same class (0.9 kW typical, 2.08 "
        "kW with 64 optical modules: SN5000 manual via the Rackula notes); "
        "latency vendor-specific",
};

static const struct sn_switch_info *const switches[] = {
    &nvswitch2, &nvswitch3, &nvlink5sw, &ubswitch,
    &ub2switch, &qm9700,    &q3400,     &th5,
};

/* ---- NICs ------------------------------------------------------------- */

static const struct sn_nic_info cx6 = {
    .name = "cx6-200g",
    .display = "ConnectX-6 HDR 200G",
    .vendor = "NVIDIA",
    .rate = 200 * GBPS,
    .ports = 1,
    .power_w = 0,
    .confidence = SN_CONF_SECONDARY,
    .source = "[S] 8 x 200 Gb/s HDR InfiniBand per Selene DGX A100 node "
              "(Narayanan et al. SC'21, validation/training-public.csv); one "
              "port per adapter as used there; power not re-read",
};

static const struct sn_nic_info cx7 = {
    .name = "cx7-400g",
    .display = "ConnectX-7 NDR 400G",
    .vendor = "NVIDIA",
    .rate = 400 * GBPS,
    .ports = 1,
    .power_w = 0,
    .confidence = SN_CONF_VENDOR,
    .source = "[V] DGX H100 User Guide and DGX SuperPOD H100 RA: 8 x "
              "ConnectX-7 400G single-port (OSFP) for the compute fabric; the "
              "adapter-side 400G transceiver (9 W) is counted with the cable; "
              "adapter power not re-read",
};

static const struct sn_nic_info cx8 = {
    .name = "cx8-800g",
    .display = "ConnectX-8 SuperNIC 800G",
    .vendor = "NVIDIA",
    .rate = 800 * GBPS,
    .ports = 1,
    .power_w = 0,
    .confidence = SN_CONF_VENDOR,
    .source = "[V] NVIDIA HGX B300 spec (1.6 TB/s networking over ConnectX-8 "
              "800G, fibermall reproduction) and GB300 NVL72 (72 ConnectX-8 "
              "NICs, glennklockwood B300 page); adapter power not re-read",
};

static const struct sn_nic_info *const nics[] = {&cx6, &cx7, &cx8};

/* ---- cables and transceivers (one entry per link) -------------------- */

static const struct sn_cable_info dac400 = {
    .name = "dac-400g",
    .display = "passive copper DAC 400G (MCP4Y10-class)",
    .medium = SN_MEDIUM_COPPER,
    .max_reach = 2.0,
    .rate = 400 * GBPS,
    .transceiver_power_w = 0,
    .needs_transceivers = false,
    .confidence = SN_CONF_VENDOR,
    .source =
        "[V] NVIDIA LinkX MCP4Y10-Nxxx: 2x400G twin-port OSFP passive DAC, 0.5 "
        "to 2 m, near zero power; copper at 100G-PAM4 per lane reaches 2-3 m",
    .scale_up = false,
};

static const struct sn_cable_info dac800 = {
    .name = "dac-800g",
    .display = "passive copper DAC 800G",
    .medium = SN_MEDIUM_COPPER,
    .max_reach = 1.5,
    .rate = 800 * GBPS,
    .transceiver_power_w = 0,
    .needs_transceivers = false,
    .confidence = SN_CONF_ESTIMATE,
    .source =
        "[E] 800G links run 200G-PAM4 lanes and passive copper reaches less "
        "than at 100G per lane; 1.5 m assumed (LinkX 30 AWG DACs go to 1.5 m)",
    .scale_up = false,
};

static const struct sn_cable_info acc400 = {
    .name = "acc-400g",
    .display = "active copper 400G",
    .medium = SN_MEDIUM_ACC,
    .max_reach = 5.0,
    .rate = 400 * GBPS,
    .transceiver_power_w = 1.5,
    .needs_transceivers = false,
    .confidence = SN_CONF_SECONDARY,
    .source = "[V] LinkX MCP7Y00 product page: active copper cables for 4 and "
              "5 m; [E] about 1.5 W per end",
    .scale_up = false,
};

static const struct sn_cable_info acc800 = {
    .name = "acc-800g",
    .display = "active copper 800G",
    .medium = SN_MEDIUM_ACC,
    .max_reach = 3.0,
    .rate = 800 * GBPS,
    .transceiver_power_w = 2.0,
    .needs_transceivers = false,
    .confidence = SN_CONF_ESTIMATE,
    .source =
        "[E] active copper at 800G reaches about 3-5 m (hardware-catalog.md "
        "section 3.3, part numbers not checked); 3 m and 2 W per end assumed",
    .scale_up = false,
};

static const struct sn_cable_info aoc200 = {
    .name = "aoc-200g",
    .display = "active optical cable 200G (QSFP56)",
    .medium = SN_MEDIUM_AOC,
    .max_reach = 30.0,
    .rate = 200 * GBPS,
    .transceiver_power_w = 5.0,
    .needs_transceivers = false,
    .confidence = SN_CONF_ESTIMATE,
    .source = "[V] DGX SuperPOD H100 RA Table 8: 200G QSFP56 AOCs for the "
              "in-band network; [E] 30 m reach ('tens of metres'); optics "
              "built in: [E] 5 W an end, as a 200G SR4 module (NVIDIA "
              "MMA4Z00-NS400 at 200G: 5 W typical, 6.5 W max)",
    .scale_up = false,
};

static const struct sn_cable_info aoc400 = {
    .name = "aoc-400g",
    .display = "active optical cable 400G",
    .medium = SN_MEDIUM_AOC,
    .max_reach = 30.0,
    .rate = 400 * GBPS,
    .transceiver_power_w = 9.0,
    .needs_transceivers = false,
    .confidence = SN_CONF_ESTIMATE,
    .source =
        "[E] 400G AOC, 30 m reach assumed as for the 200G AOC; optics built "
        "in: [E] 9 W an end, as the 400G SR4 module (MMA4Z00-NS400 9 W max)",
    .scale_up = false,
};

static const struct sn_cable_info mmf400 = {
    .name = "mmf-sr4-400g",
    .display = "multimode SR4 400G (MMA4Z00-NS400 + MPO-12)",
    .medium = SN_MEDIUM_MMF,
    .max_reach = 50.0,
    .rate = 400 * GBPS,
    .transceiver_power_w = 9.0,
    .needs_transceivers = true,
    .confidence = SN_CONF_VENDOR,
    .source = "[V] NVIDIA LinkX MMA4Z00-NS400: 400G single-port OSFP multimode "
              "SR4, 50 m, 9 W max (8 W typical); switch side MMA4Z00-NS "
              "twin-port 15 W for two links; one MPO-12 with 8 fibres per link",
    .scale_up = false,
};

static const struct sn_cable_info smf400 = {
    .name = "smf-dr4-400g",
    .display = "single-mode DR4 400G (MMS4X00-NS400 + MPO-12)",
    .medium = SN_MEDIUM_SMF,
    .max_reach = 100.0,
    .rate = 400 * GBPS,
    .transceiver_power_w = 9.0,
    .needs_transceivers = true,
    .confidence = SN_CONF_VENDOR,
    .source =
        "[V] NVIDIA LinkX MMS4X00-NS400: 400G OSFP single-mode DR4, 100 m, 9 "
        "W; switch side MMS4X00-NS twin-port DR8, 17 W for two links",
    .scale_up = false,
};

static const struct sn_cable_info mmf800 = {
    .name = "mmf-sr8-800g",
    .display = "multimode 2xSR4 800G twin-port (MMA4Z00-NS)",
    .medium = SN_MEDIUM_MMF,
    .max_reach = 50.0,
    .rate = 800 * GBPS,
    .transceiver_power_w = 15.0,
    .needs_transceivers = true,
    .confidence = SN_CONF_VENDOR,
    .source = "[V] NVIDIA LinkX MMA4Z00-NS: 800G twin-port OSFP 2x400G SR4, "
              "two MPO-12/APC, 50 m, 15 W; switch-to-switch at 800 Gb/s",
    .scale_up = false,
};

static const struct sn_cable_info smf800 = {
    .name = "smf-dr8-800g",
    .display = "single-mode 2xDR4 800G twin-port (MMS4X00-NS)",
    .medium = SN_MEDIUM_SMF,
    .max_reach = 100.0,
    .rate = 800 * GBPS,
    .transceiver_power_w = 17.0,
    .needs_transceivers = true,
    .confidence = SN_CONF_VENDOR,
    .source = "[V] NVIDIA LinkX MMS4X00-NS: 800G twin-port OSFP 2x400G DR4, "
              "100 m, 17 W",
    .scale_up = false,
};

static const struct sn_cable_info smffr4 = {
    .name = "smf-fr4-800g",
    .display = "single-mode 2xFR4 800G twin-port (MMS4X50-NM)",
    .medium = SN_MEDIUM_SMF,
    .max_reach = 2000.0,
    .rate = 800 * GBPS,
    .transceiver_power_w = 17.0,
    .needs_transceivers = true,
    .confidence = SN_CONF_ESTIMATE,
    .source =
        "[V] NVIDIA LinkX MMS4X50-NM: 800G twin-port OSFP 2xFR4 single-mode, 2 "
        "km; [E] power not published here, 17 W assumed as the DR8 module",
    .scale_up = false,
};

static const struct sn_cable_info nvl4cu = {
    .name = "nvlink4-copper",
    .display = "NVLink 4 copper cable (NVLink Switch System)",
    .medium = SN_MEDIUM_COPPER,
    .max_reach = 2.0,
    .rate = 25 * GB,
    .transceiver_power_w = 0,
    .needs_transceivers = false,
    .confidence = SN_CONF_ESTIMATE,
    .source =
        "[E] NVLink 4 link 25 GB/s per direction between a node and external "
        "NVLink switches over OSFP copper; reach about 2 m assumed (copper at "
        "100G-PAM4 per lane, hardware-catalog.md section 3.3)",
    .scale_up = true,
};

static const struct sn_cable_info nvl5cu = {
    .name = "nvlink5-copper",
    .display = "NVLink 5 copper spine (NVL72)",
    .medium = SN_MEDIUM_COPPER,
    .max_reach = 1.0,
    .rate = 50 * GB,
    .transceiver_power_w = 0,
    .needs_transceivers = false,
    .confidence = SN_CONF_SECONDARY,
    .source = "[S] NVL72 runs NVLink 5 over a copper cable spine inside one "
              "rack (setloop; The Register: more than 5,000 cables, ~3 km of "
              "copper); [E] maximum length not published, about 1 m assumed",
    .scale_up = true,
};

static const struct sn_cable_info ublpo = {
    .name = "ub-lpo-400g",
    .display = "400G LPO optics for Unified Bus (CloudMatrix 384)",
    .medium = SN_MEDIUM_SMF,
    .max_reach = 100.0,
    .rate = 56 * GB,
    .transceiver_power_w = 6.0,
    .needs_transceivers = true,
    .confidence = SN_CONF_ESTIMATE,
    .source = "[S] CloudMatrix 384 runs its UB fabric over 400G LPO modules "
              "(SemiAnalysis 2025-04-16: 6,912 x 400G LPO, 14 per NPU on the "
              "UB fabric; qsfptek; besthub.dev wiring scheme: 56 x 400G UB "
              "ports a node); [D] 48 nodes x 56 = 2,688 optical UB cables "
              "for 5,376 L1-L2 links of 28 GB/s: a module carries two "
              "links, 56 GB/s; [E] 6 W a module (half an 800G LPO's 8-9 W "
              "plus its laser); 100 m reach assumed",
    .scale_up = true,
    .links_per_module = 2,
};

static const struct sn_cable_info *const cables[] = {
    &dac400, &dac800, &acc400, &acc800, &aoc200, &aoc400, &mmf400,
    &smf400, &mmf800, &smf800, &smffr4, &nvl4cu, &nvl5cu, &ublpo,
};

/* ---- model presets ---------------------------------------------------- */

/* The GPT family Megatron-LM trained in Narayanan et al. SC'21, Table 1:
 * layers, hidden, heads, sequence 2048, vocabulary 51200 (ffn 4h, tied
 * embeddings). */
#define MEGATRON_SRC                                                           \
    "[V] Narayanan et al. SC'21 'Efficient Large-Scale Language Model "        \
    "Training on GPU Clusters Using Megatron-LM' Table 1 (layers, hidden, "    \
    "heads, seq 2048, vocab 51200; validation/training-public.csv); ffn = "    \
    "4 x hidden, tied embeddings"
#define MEGATRON(nm, key, disp, l, h, a, p)                                    \
    static const struct sn_model_info nm = {                                   \
        .name = "megatron-" key,                                               \
        .display = "GPT-" disp " (Megatron-LM)",                               \
        .layers = l,                                                           \
        .hidden = h,                                                           \
        .heads = a,                                                            \
        .kv_heads = a,                                                         \
        .ffn = 4 * (h),                                                        \
        .vocab = 51200,                                                        \
        .seq = 2048,                                                           \
        .params = (p)*1e9,                                                     \
        .active_params = (p)*1e9,                                              \
        .confidence = SN_CONF_VENDOR,                                          \
        .source = MEGATRON_SRC,                                                \
        .tied_embeddings = true,                                               \
    }

MEGATRON(m1p7, "1.7b", "1.7B", 24, 2304, 24, 1.7);
MEGATRON(m3p6, "3.6b", "3.6B", 30, 3072, 32, 3.6);
MEGATRON(m7p5, "7.5b", "7.5B", 36, 4096, 32, 7.5);
MEGATRON(m18, "18.4b", "18.4B", 40, 6144, 48, 18.4);
MEGATRON(m39, "39.1b", "39.1B", 48, 8192, 64, 39.1);
MEGATRON(m76, "76.1b", "76.1B", 60, 10240, 80, 76.1);
MEGATRON(m145, "145.6b", "145.6B", 80, 12288, 96, 145.6);
MEGATRON(m310, "310.1b", "310.1B", 96, 16384, 128, 310.1);
MEGATRON(m529, "529.6b", "529.6B", 105, 20480, 128, 529.6);
MEGATRON(m1t, "1t", "1T", 128, 25600, 160, 1008.0);

static const struct sn_model_info gpt3 = {
    .name = "gpt3-175b",
    .display = "GPT-3 175B",
    .layers = 96,
    .hidden = 12288,
    .heads = 96,
    .kv_heads = 96,
    .ffn = 49152,
    .vocab = 51200,
    .seq = 2048,
    .gated_mlp = false,
    .experts = 0,
    .topk = 0,
    .shared_experts = 0,
    .moe_layers = 0,
    .params = 175e9,
    .active_params = 175e9,
    .confidence = SN_CONF_VENDOR,
    .source =
        "[V] Brown et al. 2020 'Language Models are Few-Shot Learners' Table "
        "2.1 (96 layers, d_model 12288, 96 heads, context 2048); vocabulary "
        "padded to 51200 as in Megatron-LM runs (Korthikanti et al. 2022, "
        "validation/training-public.csv); ffn 4h; tied embeddings",
    .dense_ffn = 0,
    .tied_embeddings = true,
};

static const struct sn_model_info mtnlg = {
    .name = "mt-nlg-530b",
    .display = "MT-NLG 530B",
    .layers = 105,
    .hidden = 20480,
    .heads = 128,
    .kv_heads = 128,
    .ffn = 81920,
    .vocab = 51200,
    .seq = 2048,
    .gated_mlp = false,
    .experts = 0,
    .topk = 0,
    .shared_experts = 0,
    .moe_layers = 0,
    .params = 530e9,
    .active_params = 530e9,
    .confidence = SN_CONF_VENDOR,
    .source = "[V] Smith et al. 2022 'Using DeepSpeed and Megatron to Train "
              "Megatron-Turing NLG 530B' (105 layers, hidden 20480, 128 heads, "
              "sequence 2048); vocab 51200 as in Korthikanti et al. 2022 Table "
              "5 (validation/training-public.csv); ffn 4h; tied embeddings",
    .dense_ffn = 0,
    .tied_embeddings = true,
};

#define LLAMA2_SRC                                                             \
    "[V] Touvron et al. 2023 'Llama 2' Table 1 and the released "              \
    "config.json (SwiGLU, vocab 32000, context 4096; 70B uses GQA with 8 "     \
    "KV heads); untied embeddings"
#define LLAMA3_SRC                                                             \
    "[V] 'The Llama 3 Herd of Models' (2024) Table 3 and the released "        \
    "config.json (SwiGLU, GQA with 8 KV heads, vocab 128256 incl. special "    \
    "tokens, pre-training sequence 8192); untied embeddings"

static const struct sn_model_info llama2_7b = {
    .name = "llama2-7b",
    .display = "Llama 2 7B",
    .layers = 32,
    .hidden = 4096,
    .heads = 32,
    .kv_heads = 32,
    .ffn = 11008,
    .vocab = 32000,
    .seq = 4096,
    .gated_mlp = true,
    .experts = 0,
    .topk = 0,
    .shared_experts = 0,
    .moe_layers = 0,
    .params = 6.74e9,
    .active_params = 6.74e9,
    .confidence = SN_CONF_VENDOR,
    .source = LLAMA2_SRC,
    .dense_ffn = 0,
    .tied_embeddings = false,
};

static const struct sn_model_info llama2_70b = {
    .name = "llama2-70b",
    .display = "Llama 2 70B",
    .layers = 80,
    .hidden = 8192,
    .heads = 64,
    .kv_heads = 8,
    .ffn = 28672,
    .vocab = 32000,
    .seq = 4096,
    .gated_mlp = true,
    .experts = 0,
    .topk = 0,
    .shared_experts = 0,
    .moe_layers = 0,
    .params = 69e9,
    .active_params = 69e9,
    .confidence = SN_CONF_VENDOR,
    .source = LLAMA2_SRC,
    .dense_ffn = 0,
    .tied_embeddings = false,
};

static const struct sn_model_info llama3_8b = {
    .name = "llama3-8b",
    .display = "Llama 3 8B",
    .layers = 32,
    .hidden = 4096,
    .heads = 32,
    .kv_heads = 8,
    .ffn = 14336,
    .vocab = 128256,
    .seq = 8192,
    .gated_mlp = true,
    .experts = 0,
    .topk = 0,
    .shared_experts = 0,
    .moe_layers = 0,
    .params = 8.03e9,
    .active_params = 8.03e9,
    .confidence = SN_CONF_VENDOR,
    .source = LLAMA3_SRC,
    .dense_ffn = 0,
    .tied_embeddings = false,
};

static const struct sn_model_info llama3_70b = {
    .name = "llama3-70b",
    .display = "Llama 3 70B",
    .layers = 80,
    .hidden = 8192,
    .heads = 64,
    .kv_heads = 8,
    .ffn = 28672,
    .vocab = 128256,
    .seq = 8192,
    .gated_mlp = true,
    .experts = 0,
    .topk = 0,
    .shared_experts = 0,
    .moe_layers = 0,
    .params = 70.6e9,
    .active_params = 70.6e9,
    .confidence = SN_CONF_VENDOR,
    .source = LLAMA3_SRC,
    .dense_ffn = 0,
    .tied_embeddings = false,
};

static const struct sn_model_info llama3_405b = {
    .name = "llama3-405b",
    .display = "Llama 3 405B",
    .layers = 126,
    .hidden = 16384,
    .heads = 128,
    .kv_heads = 8,
    .ffn = 53248,
    .vocab = 128256,
    .seq = 8192,
    .gated_mlp = true,
    .experts = 0,
    .topk = 0,
    .shared_experts = 0,
    .moe_layers = 0,
    .params = 405e9,
    .active_params = 405e9,
    .confidence = SN_CONF_VENDOR,
    .source = LLAMA3_SRC,
    .dense_ffn = 0,
    .tied_embeddings = false,
};

static const struct sn_model_info mixtral = {
    .name = "mixtral-8x7b",
    .display = "Mixtral 8x7B",
    .layers = 32,
    .hidden = 4096,
    .heads = 32,
    .kv_heads = 8,
    .ffn = 14336,
    .vocab = 32000,
    .seq = 32768,
    .gated_mlp = true,
    .experts = 8,
    .topk = 2,
    .shared_experts = 0,
    .moe_layers = 32,
    .params = 46.7e9,
    .active_params = 12.9e9,
    .confidence = SN_CONF_VENDOR,
    .source = "[V] Jiang et al. 2024 'Mixtral of Experts' arXiv:2401.04088 "
              "Table 1: 32 layers, dim 4096, 32 heads, 8 KV heads, expert ffn "
              "14336, 8 experts, top-2, vocab 32000, context 32768; 46.7B "
              "total, 12.9B active parameters; untied embeddings",
    .dense_ffn = 0,
    .tied_embeddings = false,
};

static const struct sn_model_info deepseekv3 = {
    .name = "deepseek-v3",
    .display = "DeepSeek-V3 (MoE, MLA simplified)",
    .layers = 61,
    .hidden = 7168,
    .heads = 128,
    .kv_heads = 128,
    .ffn = 2048,
    .vocab = 129280,
    .seq = 4096,
    .gated_mlp = true,
    .experts = 256,
    .topk = 8,
    .shared_experts = 1,
    .moe_layers = 58,
    .params = 671e9,
    .active_params = 37e9,
    .confidence = SN_CONF_DERIVED,
    .source =
        "[V] DeepSeek-AI 'DeepSeek-V3 Technical Report' arXiv:2412.19437: 61 "
        "layers, hidden 7168, 128 heads, first 3 layers dense (ffn 18432), 58 "
        "MoE layers of 256 routed experts (ffn 2048) + 1 shared, top-8, vocab "
        "129280, pre-training sequence 4096, 671B total / 37B active; [D] "
        "multi-head latent attention is treated as plain multi-head attention "
        "of width hidden (4h^2 = 205M parameters per layer against MLA's "
        "~187M; KV-cache compression not modelled); the multi-token-prediction "
        "module is left out",
    .dense_ffn = 18432,
    .tied_embeddings = false,
};

static const struct sn_model_info *const models[] = {
    &m1p7,       &m3p6,        &m7p5,      &m18,        &m39,
    &m76,        &m145,        &m310,      &m529,       &m1t,
    &gpt3,       &mtnlg,       &llama2_7b, &llama2_70b, &llama3_8b,
    &llama3_70b, &llama3_405b, &mixtral,   &deepseekv3,
};

static const struct sn_catalog builtin = {
    accels, SN_ARRAY_LEN(accels), switches, SN_ARRAY_LEN(switches),
    nics,   SN_ARRAY_LEN(nics),   cables,   SN_ARRAY_LEN(cables),
    models, SN_ARRAY_LEN(models),
};

const struct sn_catalog *sn_catalog_builtin(void)
{
    return &builtin;
}

/* Every catalog struct starts with `const char *name`, so one search
 * serves all five kinds. */
static const void *find(const void *const *items, size_t n, const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (sn_strcaseeq(*(const char *const *)items[i], name))
            return items[i];
    return NULL;
}

const struct sn_accel_info *sn_catalog_accel(const struct sn_catalog *c,
                                             const char *name)
{
    return find((const void *const *)c->accels, c->naccels, name);
}

const struct sn_switch_info *sn_catalog_switch(const struct sn_catalog *c,
                                               const char *name)
{
    return find((const void *const *)c->switches, c->nswitches, name);
}

const struct sn_nic_info *sn_catalog_nic(const struct sn_catalog *c,
                                         const char *name)
{
    return find((const void *const *)c->nics, c->nnics, name);
}

const struct sn_cable_info *sn_catalog_cable(const struct sn_catalog *c,
                                             const char *name)
{
    return find((const void *const *)c->cables, c->ncables, name);
}

const struct sn_model_info *sn_catalog_model(const struct sn_catalog *c,
                                             const char *name)
{
    return find((const void *const *)c->models, c->nmodels, name);
}

const char *sn__catalog_suggest(const void *const *items, size_t n,
                                const char *word)
{
    const char **names;
    const char *near;
    size_t len = strlen(word);

    if (n == 0 || len == 0)
        return NULL;
    names = sn_xcalloc(n + 1, sizeof(*names));
    for (size_t i = 0; i < n; i++)
        names[i] = *(const char *const *)items[i];
    near = sn_suggest(word, names);
    /* "h100" is far in edit distance from "h100-sxm5-80gb" but is plainly
     * meant: fall back to the first name the word begins. */
    for (size_t i = 0; !near && len >= 2 && i < n; i++)
        if (strncasecmp(names[i], word, len) == 0)
            near = names[i];
    free(names);
    return near;
}

/* Preference among media for a cable of the same reach: passive copper
 * first (cheapest, no power), then active copper, AOC, multimode,
 * single-mode (hardware-catalog.md section 3.3). */
static int medium_rank(enum sn_medium m)
{
    switch (m) {
    case SN_MEDIUM_COPPER:
        return 0;
    case SN_MEDIUM_ACC:
        return 1;
    case SN_MEDIUM_AOC:
        return 2;
    case SN_MEDIUM_MMF:
        return 3;
    case SN_MEDIUM_SMF:
        return 4;
    default:
        return 5;
    }
}

const struct sn_cable_info *sn_catalog_cable_for(const struct sn_catalog *c,
                                                 double length, double rate)
{
    const struct sn_cable_info *best = NULL;

    for (size_t i = 0; i < c->ncables; i++) {
        const struct sn_cable_info *x = c->cables[i];
        if (x->scale_up || x->medium == SN_MEDIUM_BOARD)
            continue;
        /* a cable slower than the link is no use; 0.1 % slack absorbs
         * rounding in "400Gbps" against 50 GB/s */
        if (x->max_reach < length || x->rate < rate * 0.999)
            continue;
        if (!best || medium_rank(x->medium) < medium_rank(best->medium) ||
            (x->medium == best->medium &&
             (x->rate < best->rate ||
              (x->rate == best->rate && x->max_reach < best->max_reach))))
            best = x;
    }
    return best;
}

const char *sn_medium_name(enum sn_medium m)
{
    static const char *const names[] = {
        [SN_MEDIUM_BOARD] = "board", [SN_MEDIUM_COPPER] = "copper",
        [SN_MEDIUM_ACC] = "acc",     [SN_MEDIUM_AOC] = "aoc",
        [SN_MEDIUM_MMF] = "mmf",     [SN_MEDIUM_SMF] = "smf",
    };

    if ((unsigned)m >= SN_ARRAY_LEN(names))
        return "?";
    return names[m];
}

const char *sn_confidence_mark(enum sn_confidence c)
{
    switch (c) {
    case SN_CONF_VENDOR:
        return "V";
    case SN_CONF_SECONDARY:
        return "S";
    case SN_CONF_DERIVED:
        return "D";
    case SN_CONF_ESTIMATE:
        return "E";
    case SN_CONF_USER:
        return "U";
    }
    return "?";
}

/* Parameters of a transformer from its dimensions: per layer, attention
 * q and o (2h^2) plus k and v (2 h kv_heads h/heads), MLP (3 or 2 matrices
 * of h x ffn) per expert, router h x experts on MoE layers; embeddings
 * V h, twice when input and output are untied. Norms and biases (a few h
 * per layer) are left out. */
void sn__model_params(const struct sn_model_info *m, double *total,
                      double *active)
{
    double h = m->hidden, l = m->layers;
    double head_dim = m->heads > 0 ? h / m->heads : h;
    double kv = m->kv_heads > 0 ? m->kv_heads : m->heads;
    double attn = 2 * h * h + 2 * h * kv * head_dim;
    double mats = m->gated_mlp ? 3 : 2;
    double mlp = mats * h * m->ffn;
    double dense_mlp = mats * h * (m->dense_ffn > 0 ? m->dense_ffn : m->ffn);
    double emb = (double)m->vocab * h * (m->tied_embeddings ? 1 : 2);
    double moe_l = 0, dense_l = l, t, a;

    if (m->experts > 1) {
        moe_l = m->moe_layers > 0 ? m->moe_layers : l;
        dense_l = l - moe_l;
    }
    t = dense_l * (attn + dense_mlp) + emb;
    a = t;
    if (moe_l > 0) {
        double per = attn + h * m->experts;
        t += moe_l * (per + (m->experts + m->shared_experts) * mlp);
        a += moe_l * (per + (m->topk + m->shared_experts) * mlp);
    }
    if (total)
        *total = t;
    if (active)
        *active = a;
}

/* catalog-accels.c: the built-in accelerators, every row of
 * reference/accelerators.csv and the China-market parts of
 * reference/cn-catalog.md. Every number carries its source and a
 * confidence mark ([V] vendor, [S] secondary, [D] derived, [E] estimate);
 * docs/catalog.md lists the same entries. Units are SI. Assembled into
 * the catalog by catalog.c. */
#include "catalog-int.h"

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
              "196 per direction assumed; no FP8; INT8 752 TOPS [D]: twice the "
              "BF16 figure, the DaVinci cube's 8192 INT8 to 4096 FP16 MACs a "
              "cycle (Huawei, Hot Chips 31, 2019); node overhead 1.8 [E]",
    .per_node = 8,
    .fabric = SN_FABRIC_FULL_MESH,
    .scaleup_tiers = 1,
    .scaleup_planes = 0,
    .switch_name = NULL,
    .node_overhead = OVERHEAD_8GPU,
    /* Atlas 800T A2: 4 Kunpeng 920 CPUs (cn-catalog.md 3, count [?]) [S] */
    .host_cpus = 4,
    /* the DaVinci cube does 8192 INT8 MACs a cycle to 4096 FP16 (Huawei,
     * Hot Chips 31, 2019: Ascend 910 256 TFLOPS FP16, 512 TOPS INT8),
     * and 910B listings keep the ratio (320 FP16, 640 INT8): twice the
     * BF16 figure above [D] */
    .int8_ops = 2 * 376 * TF,
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
        "310-400 W (boardor, ArthurChiao) with 8 HBM stacks; no FP8; INT8 "
        "1504 TOPS [D]: not published, twice the BF16 figure by the DaVinci "
        "cube's 8192 INT8 to 4096 FP16 MACs a cycle (Huawei, Hot Chips 31, "
        "2019; Ascend 910 256 / 512, 910B 320 / 640); node "
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
    /* INT8 (W8A8), which CloudMatrix-Infer serves DeepSeek-R1 in (Zuo et
     * al., arXiv:2506.12708): no INT8 figure is published for the 910C;
     * its DaVinci cube does 8192 INT8 MACs a cycle to 4096 FP16 (Huawei,
     * Hot Chips 31, 2019: Ascend 910 256 TFLOPS FP16, 512 TOPS INT8;
     * 910B 320 / 640), so twice the 752 TFLOPS BF16: 1504 TOPS [D] */
    .int8_ops = 2 * 752 * TF,
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
#define DAVINCI(cores) ((cores)*8192.0 * 1.8e9)
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
        .int8_ops = 2 * DAVINCI(cores),                                        \
    }
#define ASCEND910B_SRC                                                         \
    " [E] FLOPS = AI cores x 8,192 FLOP a cycle x 1.8 GHz (no clock is "       \
    "published; third parties quote 280-414 TFLOPS by SKU); 1.6 TB/s as one "  \
    "910C die [D]; HCCS: 7 links in the Atlas 800T A2's 8-NPU full mesh, "     \
    "392 GB/s bidirectional (ArthurChiao) -> 196 per direction; 400 W "        \
    "(ArthurChiao; boardor: 310 W) [S]; no FP8; INT8 twice the FLOPS, 16,384 " \
    "INT8 operations a cycle (Hot Chips 31, 2019) [D]"

ASCEND910B(
    ascend910b2, "ascend-910b2", "Ascend 910B2", 24, 64,
    "[V-ish] HAMi device table: 910B2, 24 AI cores, 64 GB;" ASCEND910B_SRC);
ASCEND910B(
    ascend910b3, "ascend-910b3", "Ascend 910B3", 20, 64,
    "[V-ish] HAMi device table: 910B3, 20 AI cores, 64 GB;" ASCEND910B_SRC);
ASCEND910B(ascend910b4, "ascend-910b4", "Ascend 910B4", 20, 32,
           "[V-ish] HAMi device table: 910B4, 20 AI cores, 32 GB (910B4-1: "
           "64 GB);" ASCEND910B_SRC);

/* Huawei Connect 2025 roadmap (Eric Xu's keynote, 2025-09-18, as relayed
 * by several outlets; cn-catalog.md 2): FP8 and FP4 rates, memory, UB
 * bandwidth per chip. No BF16 rate and no TDP were given. */
#define ASCEND_ROADMAP_SRC                                                     \
    " [E] BF16 at half the FP8 rate (Ascend has doubled its rate per halving " \
    "of precision); the UB figure read as bidirectional, as 910C's 784 GB/s "  \
    "is 2 x 392 [D], so half of it per direction [E]; no TDP published: [E] "  \
    "1 kW, twice the 910C's FP8-class rate on a newer process, liquid-cooled " \
    "SuperPoDs; 8 a node, 14 UB links (as 910C), 2 switch tiers and 1.8 "      \
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
    .source =
        "[S] io-tech.fi, tweakpc, itbear (MDC 2025 recap): 100 TFLOPS "
        "FP16/BF16, 48 GB GDDR6 384-bit at 768 GB/s, MTLink 1.0 240 GB/s, "
        "PCIe 5 x16, 450 W; KUAE MCCX D800 = 8 x S4000 a server; [E] "
        "240 GB/s read as bidirectional; node overhead 1.8",
    .per_node = 8,
    .fabric = SN_FABRIC_PCIE_TREE,
    .scaleup_tiers = 1,
    .node_overhead = OVERHEAD_8GPU,
    .host_cpus = 2,
};

const struct sn_accel_info *const sn__catalog_accels[] = {
    &a100,        &h100,        &h200,        &b200,        &gb200,
    &b300,        &gb300,       &mi300x,      &mi325x,      &mi355x,
    &gaudi3,      &ascend910b,  &ascend910c,  &tpuv5p,      &tpuv6e,
    &h20,         &h800,        &a800,        &l20,         &ascend910b2,
    &ascend910b3, &ascend910b4, &ascend950pr, &ascend950dt, &ascend960,
    &ascend970,   &mlu370,      &mtts4000,
};
_Static_assert(SN_ARRAY_LEN(sn__catalog_accels) == SN__CATALOG_NACCELS,
               "catalog-int.h counts the entries of sn__catalog_accels");

/* catalog-parts.c: the built-in network parts: switch chips (scale-up)
 * and switch boxes (scale-out), NICs, and cables and transceivers. Every
 * number carries its source and a confidence mark ([V] vendor, [S]
 * secondary, [D] derived, [E] estimate); docs/catalog.md lists the same
 * entries. Units are SI. Assembled into the catalog by catalog.c. */
#include "catalog-int.h"

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
        "NVLink topology tables, via openfabric-systems/simllm notes); NVLink "
        "3 "
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
        "chips; 4 chips on an HGX H100 board, each GPU's 18 links split "
        "5/4/4/5 "
        "(Fabric Manager User Guide via simllm notes); [E] 250 W per chip: "
        "25.6 "
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
        "tray; NVLink 5 link 50 GB/s per direction; SHARP in-network "
        "reduction; "
        "[E] 400 W per chip with its share of the tray (0.8 kW a tray: 57.6 "
        "Tb/s a chip at 5-7 pJ/bit plus tray management; Introl lists 0.4 kW a "
        "tray, and the NVL72 rack's remainder after 18 compute trays at 6,667 "
        "W "
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
        "NPU-facing and 16 L2-facing links, 7 planes x 16 L2 switches; 48 "
        "ports "
        "= one per node's L1 chip of the plane [D]; 28 GB/s per link = 392 "
        "GB/s "
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
    .ports_per_cage = 2, /* [V] the manual: 32 OSFP cages, 64 ports */
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
        "10,368 endpoints = 144 x 72 -> 144 ports of 800 Gb/s; SHARPv4; [S] "
        "4U; "
        "[E] 2.5 kW without optics (no NVIDIA figure found; 72 x 25 W 1.6T "
        "modules add 1.8 kW, counted per transceiver); latency not re-read",
    /* [E] 144 ports of 800G in 72 twin-port OSFP cages, one 1.6T
     * (2 x 800G) module a cage, as the power note above counts them */
    .ports_per_cage = 2,
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

const struct sn_switch_info *const sn__catalog_switches[] = {
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

static const struct sn_nic_info cx7dgx = {
    .name = "cx7-400g-dgx",
    .display = "ConnectX-7 NDR 400G, DGX H100/H200 (twin-port OSFP cages)",
    .vendor = "NVIDIA",
    .rate = 400 * GBPS,
    .ports = 1,
    .power_w = 0,
    .confidence = SN_CONF_VENDOR,
    .source = "[V] DGX H100 User Guide 1.2.3 and DGX SuperPOD H100 RA: the 8 "
              "ConnectX-7 400G compute ports leave the system through 4 "
              "twin-port OSFP cages, so one twin-port module (MMA4Z00-NS) "
              "carries two of them; the RA's bill of materials counts 4 "
              "system transceivers a DGX (508 for 127 systems)",
    .ports_per_cage = 2,
};

const struct sn_nic_info *const sn__catalog_nics[] = {&cx6, &cx7, &cx8,
                                                      &cx7dgx};

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
    .reach_estimated = true,
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
    .source = "[V] NVIDIA LinkX MCP7Y50-Nxxx and MCP7Y00 product pages: "
              "active copper cables (ACC) for 4 and 5 m at 400G "
              "(100G-PAM4); [E] about 1.5 W per end",
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
    .reach_estimated = true,
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
    .reach_estimated = true,
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
    .reach_estimated = true,
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
    .module = "MMA4Z00-NS400",
    .twin_module = "MMA4Z00-NS",
    .twin_module_w = 15.0,
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
    .module = "MMS4X00-NS400",
    .twin_module = "MMS4X00-NS",
    .twin_module_w = 17.0,
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
    .module = "800G single-port OSFP SR8",
    .twin_module = "1.6T twin-port OSFP 2x800G",
    .twin_module_w = 25.0,
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
    .module = "800G single-port OSFP DR8",
    .twin_module = "1.6T twin-port OSFP 2x800G",
    .twin_module_w = 25.0,
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
    .module = "MMS4X50-NM",
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
    .module = "400G LPO",
};

const struct sn_cable_info *const sn__catalog_cables[] = {
    &dac400, &dac800, &acc400, &acc800, &aoc200, &aoc400, &mmf400,
    &smf400, &mmf800, &smf800, &smffr4, &nvl4cu, &nvl5cu, &ublpo,
};
_Static_assert(SN_ARRAY_LEN(sn__catalog_switches) == SN__CATALOG_NSWITCHES,
               "catalog-int.h counts the entries of sn__catalog_switches");

_Static_assert(SN_ARRAY_LEN(sn__catalog_nics) == SN__CATALOG_NNICS,
               "catalog-int.h counts the entries of sn__catalog_nics");

_Static_assert(SN_ARRAY_LEN(sn__catalog_cables) == SN__CATALOG_NCABLES,
               "catalog-int.h counts the entries of sn__catalog_cables");

#!/usr/bin/env bash
# suite.sh BUILD: the planner's figures for the examples against the
# published ones (reference hardware-catalog.md and the sources it cites),
# each check with its source and its tolerance. Reads `supernode plan
# --format json` with jq. Prints "N passed, N failed" last.
# covers: plan topo spec
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${SUPERNODE:?}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# plan EXAMPLE: the JSON plan of examples/EXAMPLE.yaml, cached
plan() {
    local f="$tmp/$1.json"
    if [[ ! -f "$f" ]]; then
        "$bin" plan "examples/$1.yaml" --format json >"$f" 2>"$tmp/err" || {
            echo "FAIL plan examples/$1.yaml: $(head -c 300 "$tmp/err")"
            : >"$f"
        }
    fi
    echo "$f"
}

# exact EXAMPLE JQ VALUE WHY: the value is exactly VALUE
exact() {
    local got
    got=$(jq -r "$2" "$(plan "$1")" 2>/dev/null)
    if [[ "$got" == "$3" ]]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $1 $2 = $got, published $3 ($4)"
    fi
}

# within EXAMPLE JQ LOW HIGH WHY: LOW <= value <= HIGH
within() {
    local got
    got=$(jq -r "$2" "$(plan "$1")" 2>/dev/null)
    if jq -en --argjson v "${got:-null}" "\$v != null and \$v >= $3 and \$v <= $4" \
            >/dev/null 2>&1; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $1 $2 = $got, published range [$3, $4] ($5)"
    fi
}

# ---- the seed design (design notes; exact) ----------------------------------
exact seed-64 .totals.accelerators 256 "4 x 64"
exact seed-64 .per_supernode.links.scale_up 512 "64 x 8 links"
exact seed-64 .per_supernode.links.scale_out_nic 128 "64 x 2 uplinks"
exact seed-64 .per_supernode.links.total 640 "640 per supernode"
exact seed-64 .totals.links.scale_up 2048 "4 x 512"
exact seed-64 .totals.links.scale_out 512 "4 x 128"
exact seed-64 .totals.links.total 2560 "over 2,500 for four"

# ---- DGX SuperPOD H100, RA-11333-001 V11 (exact) -----------------------------
# Table 4, 1 SU: 31 nodes; 8 leaf, 4 spine; 252 node+UFM-to-leaf cables, of
# which 248 from the 31 DGX (the 4 UFM cables are not modelled); 256
# leaf-to-spine.
exact dgx-h100-superpod-su .totals.accelerators 248 "Table 4: 248 GPUs"
exact dgx-h100-superpod-su .totals.switches.leaf.boxes 8 "Table 4"
exact dgx-h100-superpod-su .totals.switches.spine.boxes 4 "Table 4"
exact dgx-h100-superpod-su .totals.links.scale_out_nic 248 "Table 4: 252 - 4 UFM"
exact dgx-h100-superpod-su .totals.links.scale_out_switch 256 "Table 4"
# an HGX H100 board: 4 NVSwitch chips, 8 x 18 = 144 GPU links
exact dgx-h100-superpod-su .totals.switches.scale_up_l1.chips 124 "31 x 4"
exact dgx-h100-superpod-su .totals.links.scale_up 4464 "31 x 144"
# DGX H100: 10.2 kW max per system (user guide) = 8 x 700 W x 1.82; tolerance 1%
within dgx-h100-superpod-su '.totals.power.servers_w / 31' 10098 10302 "10.2 kW"
# Tables 4, 7, 8, 4 SU: 127 nodes; 32 leaf + 16 spine = 48 QM9700; 1,020
# node+UFM-to-leaf (1,016 from the DGX) and 1,024 leaf-to-spine cables:
# 2,040 NDR cables besides the 4 UFM ones.
exact dgx-h100-superpod-4su .totals.switches.leaf.boxes 32 "Table 4"
exact dgx-h100-superpod-4su .totals.switches.spine.boxes 16 "Table 4"
exact dgx-h100-superpod-4su .totals.switch_boxes 48 "Table 7: 48 QM9700"
exact dgx-h100-superpod-4su .totals.links.scale_out_nic 1016 "Table 4: 1,020 - 4 UFM"
exact dgx-h100-superpod-4su .totals.links.scale_out_switch 1024 "Table 4"
exact dgx-h100-superpod-4su .totals.links.scale_out 2040 "Table 8: 2,040 NDR cables"
# Table 8: 1,536 switch + 508 system twin-port OSFP (2 ports each), all
# multimode: each module carries two link ends, a half-used one bought
# whole (the 8 leaves with 31 nodes)
exact dgx-h100-superpod-4su .totals.transceivers 2044 "Table 8: 1,536 switch + 508 system twin-port OSFP (4 UFM ones not planned)"
exact dgx-h100-superpod-4su .totals.modules[0].link_ends 4080 "2 x 2,040 cables, two a twin-port module"
exact dgx-h100-superpod-4su .totals.cables.mmf.links 2040 "all multimode fibre"
# Table 3, 16 SU: 512 nodes, 128 leaf, 128 spine, 64 core, 4,096 cables at
# each level.
exact dgx-h100-superpod-16su .totals.accelerators 4096 "Table 3"
exact dgx-h100-superpod-16su .totals.switches.leaf.boxes 128 "Table 3"
exact dgx-h100-superpod-16su .totals.switches.spine.boxes 128 "Table 3"
exact dgx-h100-superpod-16su .totals.switches.core.boxes 64 "Table 3"
exact dgx-h100-superpod-16su .totals.links.scale_out_nic 4096 "Table 3"
exact dgx-h100-superpod-16su .totals.links.scale_out_switch 8192 "Table 3: 4,096 + 4,096"

# ---- GB200 NVL72 (hardware-catalog.md 2.4) -----------------------------------
exact gb200-nvl72 .totals.accelerators 72 "72 GPUs"
exact gb200-nvl72 .totals.switches.scale_up_l1.chips 18 "18 NVLink 5 switch chips"
exact gb200-nvl72 .totals.switches.scale_up_l1.boxes 9 "9 switch trays (NVIDIA BCM docs)"
exact gb200-nvl72 .totals.links.scale_up 1296 "72 x 18 = 18 x 72 ports"
exact gb200-nvl72 .totals.racks.total 1 "one rack"
# 130 TB/s of NVLink, both directions (NVIDIA); tolerance 1%
within gb200-nvl72 '.totals.bandwidth.scale_up_aggregate_Bps * 2' 128.7e12 131.3e12 "130 TB/s"
# about 120 kW (NVIDIA planning figure) to about 132 kW (Schneider) a rack
within gb200-nvl72 .totals.power.steady_w 120e3 132e3 "120-132 kW"
# coolant: 1.44 L/min per kW of water at 10 K (worked example, 4.2), on the
# liquid-cooled 80 %; tolerance 1 %
within gb200-nvl72 '.totals.cooling.coolant_lpm / (.totals.cooling.liquid_w / 1e3)' 1.426 1.454 "1.44 L/min per kW"
# feed current: I = P / (sqrt(3) V PF), 132 kW at 415 V, PF 0.95: 193 A
# (worked example 4.1); here at the rack's own peak, scaled
within gb200-nvl72 '.totals.power.rack_max_current_a / (.totals.power.rack_max_peak_w / 132e3)' 192 194.5 "193 A at 132 kW"

# ---- Huawei CloudMatrix 384 (hardware-catalog.md 2.6, arXiv:2506.12708) -----
exact cloudmatrix-384 .totals.accelerators 384 "384 NPUs"
exact cloudmatrix-384 .totals.servers 48 "48 nodes"
exact cloudmatrix-384 .totals.switches.scale_up_l1.chips 336 "48 x 7 L1 UB switches"
exact cloudmatrix-384 .totals.switches.scale_up_l2.chips 112 "7 planes x 16 L2"
exact cloudmatrix-384 .totals.racks.total 16 "12 compute + 4 other cabinets"
exact cloudmatrix-384 .totals.racks.compute 12 "12 compute cabinets"
# 5,376 UB-fabric LPO modules = 384 x 14: one per L1-L2 link [D]
exact cloudmatrix-384 .totals.links.scale_up_switch 5376 "5,376 = 48 x 7 x 16"
# 1,536 RDMA-plane modules = 384 x 4: both ends of 384 NPU-leaf and 384
# leaf-spine links of a non-blocking two-tier network [D]
exact cloudmatrix-384 '.totals.links.scale_out * 2' 1536 "1,536 RDMA modules"
exact cloudmatrix-384 '.totals.cables.smf.links - .totals.links.scale_up_switch' 768 "RDMA links all optical"
# SemiAnalysis (2025-04-16): 6,912 x 400G LPO modules. A module at each
# end of 2,688 UB cables, each carrying two 28 GB/s L1-L2 links (5,376),
# and of the 768 RDMA-plane links (1,536) [D]
exact cloudmatrix-384 .totals.transceivers 6912 "6,912 = 5,376 + 1,536"
# SemiAnalysis' ~559 kW [S/E], within 10%: the 910C's TDP is an [E]
within cloudmatrix-384 .totals.power.steady_w 503e3 615e3 "559 kW +-10%"

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]

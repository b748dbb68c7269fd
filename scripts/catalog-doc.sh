#!/usr/bin/env bash
# catalog-doc.sh [SUPERNODE]: rewrite the hardware sections of
# docs/catalog.md (accelerators, switches, NICs, cables) from the built-in
# catalog, so the document and the binary cannot disagree. The prose
# around them (up to "## Accelerators" and from "## Model presets") is
# kept. tests/specs/suite.sh checks that the file is current.
#   scripts/catalog-doc.sh build/supernode          rewrite in place
#   scripts/catalog-doc.sh build/supernode --check  exit 1 if it differs
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/supernode}
mode=${2:-}
doc=docs/catalog.md
json=$("$bin" catalog list --format json)

tables() {
jq -r '
def num: if . == (. | floor) then tostring else (. * 1000 | round / 1000 | tostring) end;
def gb: (. / 1e9) | num;
def tf: (. / 1e12) | num;
"## Accelerators",
"",
"| name | vendor | BF16 TFLOPS | FP8 TFLOPS | FP4 TFLOPS | HBM | HBM TB/s | scale-up | links x GB/s | TDP W | domain | per node | fabric | conf |",
"|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
(.accelerators[] |
  "| `\(.name)` | \(.vendor) | \(.bf16_flops | tf) | \(.fp8_flops | tf) | \(.fp4_flops | tf) | \(.hbm_bytes | gb) GB | \(.hbm_bw / 1e12 | num) | \(.scaleup_name) | \(.scaleup_links) x \(if .scaleup_links > 0 then (.scaleup_bw / .scaleup_links | gb) else 0 end) | \(.tdp_w | num) | \(.max_domain) | \(.per_node) | \(.fabric)\(if .tiers > 1 then " (\(.tiers) tiers)" else "" end) | \(.confidence)\(if .roadmap then ", roadmap" else "" end) |"),
"",
(.accelerators[] | "- `\(.name)` (\(.display)): \(.source)"),
"",
"## Switch chips and switch boxes",
"",
"| name | role | ports | port rate | power W | in-network reduction | chips per box | rack units | conf |",
"|---|---|---|---|---|---|---|---|---|",
(.switches[] |
  "| `\(.name)` | \(if .scale_up then "scale-up chip" else "network box" end) | \(.radix) | \(.port_bw | gb) GB/s | \(.power_w | num) | \(if .in_network_reduction then "yes" else "no" end) | \(.chips_per_box) | \(.rack_units) | \(.confidence) |"),
"",
"Power is per chip for scale-up chips (a tray'"'"'s share included) and per",
"box without its optics for network boxes; optics are counted per",
"transceiver. Chips on a server'"'"'s board count in the server'"'"'s own figure.",
"",
(.switches[] | "- `\(.name)` (\(.display)): \(.source)"),
"",
"## NICs",
"",
"| name | rate | ports | conf |",
"|---|---|---|---|",
(.nics[] | "| `\(.name)` | \(.rate | gb) GB/s (\(.rate * 8 / 1e9 | num) Gb/s) | \(.ports) | \(.confidence) |"),
"",
(.nics[] | "- `\(.name)` (\(.display)): \(.source)"),
"",
"## Cables and transceivers",
"",
"One entry per link: a cable with its transceivers, if it takes any.",
"Optical media take a pluggable module at each end (or one module for",
"several links where it breaks out); active copper and AOC ends draw",
"power without modules.",
"",
"| name | medium | reach | rate | power per end | links per module | use | conf |",
"|---|---|---|---|---|---|---|---|",
(.cables[] | "| `\(.name)` | \(.medium) | \(.max_reach_m | num) m | \(.rate | gb) GB/s | \(.transceiver_power_w | num) W | \(if (.links_per_module // 0) > 1 then .links_per_module else 1 end) | \(if .scale_up then "scale-up" else "network" end) | \(.confidence) |"),
"",
(.cables[] | "- `\(.name)` (\(.display)): \(.source)"),
""
' <<<"$json"
}

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
{
    sed -n '1,/^## Accelerators$/p' "$doc" | sed '$d'
    tables
    sed -n '/^## Model presets$/,$p' "$doc"
} >"$tmp"
if [[ "$mode" == "--check" ]]; then
    if ! cmp -s "$tmp" "$doc"; then
        echo "docs/catalog.md is not current: run scripts/catalog-doc.sh" >&2
        diff "$doc" "$tmp" | head -20 >&2
        exit 1
    fi
    exit 0
fi
cp "$tmp" "$doc"

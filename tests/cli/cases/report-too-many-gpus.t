# --gpus past the spec's accelerators is a usage error naming both
args: report examples/gb200-nvl72.yaml --model llama3-70b --gpus 100 -o $TMP/r.html
covers: spec topo net workload study bench store html render
exit: 2
stderr-has: --gpus 100 is more than the spec's 72 accelerators
no-file: $TMP/r.html

# --gpus counts accelerators for --model: alone it is a usage error
args: report --gpus 8 -o $TMP/r.html
covers: spec topo net workload study bench store html render
exit: 2
stderr-has: --gpus is the accelerators for --model
no-file: $TMP/r.html

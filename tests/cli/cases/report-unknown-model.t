# an unknown model is refused before anything is written
args: report examples/gb200-nvl72.yaml --model gpt-17 -o $TMP/r.html
covers: spec topo net workload study bench store html render
exit: 2
stderr-has: unknown model 'gpt-17'
no-file: $TMP/r.html

# a run id is a positive whole number
args: report --run 12x -o $TMP/r.html
covers: spec topo net workload study bench store html render
exit: 2
stderr-has: --run: '12x' is not a whole number
no-file: $TMP/r.html

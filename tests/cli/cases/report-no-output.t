# the page goes to a file: without -o it is a usage error that says so
args: report examples/seed-64.yaml
covers: spec topo net workload study bench store html render
exit: 2
stderr-has: report: no output (give -o FILE.html)

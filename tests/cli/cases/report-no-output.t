# the page goes to a file: without -o it is a usage error that says so
args: report examples/seed-64.yaml
covers: spec topo model bench store report
exit: 2
stderr-has: report: no output (give -o FILE.html)

# opposite listings: refused, not the last one winning
args: sim pairs --all --classes
covers: spec topo net workload study render
exit: 2
stderr-has: --all and --classes ask for opposite listings

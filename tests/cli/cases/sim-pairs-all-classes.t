# opposite listings: refused, not the last one winning
args: sim pairs --all --classes
covers: spec topo model report
exit: 2
stderr-has: --all and --classes ask for opposite listings

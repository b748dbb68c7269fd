# sim alone names its subcommands
args: sim
covers: spec topo model report
exit: 2
stderr-has: sim needs a subcommand: coll, pairs, train or infer

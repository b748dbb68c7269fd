# sim alone names its subcommands
args: sim
covers: spec topo net workload study render
exit: 2
stderr-has: sim needs a subcommand: coll, pairs, train or infer

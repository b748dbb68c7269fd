# sim alone names its subcommands
args: sim
exit: 2
stderr-has: sim needs a subcommand: coll, pairs or train

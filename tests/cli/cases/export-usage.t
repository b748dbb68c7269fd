# a subcommand is needed
args: export
covers: spec topo export render
exit: 2
stderr-has: nccl-topo

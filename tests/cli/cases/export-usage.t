# a subcommand is needed
args: export
covers: spec topo report
exit: 2
stderr-has: nccl-topo

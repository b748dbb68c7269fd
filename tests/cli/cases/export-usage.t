# a subcommand is needed
args: export
exit: 2
stderr-has: nccl-topo

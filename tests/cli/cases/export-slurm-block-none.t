# one-node domains have nothing for topology/block
args: export slurm examples/mi300x-16-servers.yaml --plugin block
covers: spec topo export render
exit: 2
stderr-has: topology/block has nothing to place

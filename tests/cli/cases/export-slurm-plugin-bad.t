# an unknown plugin is bad usage
args: export slurm examples/mi300x-16-servers.yaml --plugin ring
covers: spec topo export render
exit: 2
stderr-has: --plugin 'ring' is not block, tree or both

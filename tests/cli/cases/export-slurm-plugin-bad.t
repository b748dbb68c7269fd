# an unknown plugin is bad usage
args: export slurm examples/mi300x-16-servers.yaml --plugin ring
exit: 2
stderr-has: --plugin 'ring' is not block, tree or both

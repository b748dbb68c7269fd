# 16 MI300X servers: the rail fat tree
args: export slurm examples/mi300x-16-servers.yaml --plugin tree
covers: spec topo export render
exit: 0
stdout: tests/cli/expected/export-slurm-mi300x.out

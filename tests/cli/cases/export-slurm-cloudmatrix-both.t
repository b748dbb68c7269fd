# CloudMatrix 384: both plugins as topology.yaml
args: export slurm examples/cloudmatrix-384.yaml --plugin both
covers: spec topo export render
exit: 0
stdout: tests/cli/expected/export-slurm-cloudmatrix-both.out

# GB200 NVL72: topology/block with the rack as one block
args: export slurm examples/gb200-nvl72.yaml
covers: spec topo export render
exit: 0
stdout: tests/cli/expected/export-slurm-gb200.out

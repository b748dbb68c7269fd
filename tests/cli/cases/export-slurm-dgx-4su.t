# DGX SuperPOD of 4 SUs: topology/tree, a leaf group per SU under the spines
args: export slurm examples/dgx-h100-superpod-4su.yaml
covers: spec topo export render
exit: 0
stdout: tests/cli/expected/export-slurm-dgx-4su.out

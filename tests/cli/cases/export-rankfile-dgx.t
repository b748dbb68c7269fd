# Open MPI rankfile of a DGX SU: ranks by node, then rail; socket by the GPU's CPU
args: export rankfile examples/dgx-h100-superpod-su.yaml
covers: spec topo export render
exit: 0
stdout: tests/cli/expected/export-rankfile-dgx.out

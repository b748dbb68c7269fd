# CloudMatrix 384: every node labelled with its scale-up domain
args: export k8s examples/cloudmatrix-384.yaml
covers: spec topo export render
exit: 0
stdout: tests/cli/expected/export-k8s-cloudmatrix.out

# RCCL reads the same file: a full mesh of xGMI links to the 7 peers
args: export nccl-topo examples/mi300x-16-servers.yaml --node 15
covers: spec topo health export render
exit: 0
stdout: tests/cli/expected/export-nccl-mi300x.out

# NCCL topology file of a DGX H100 node: 4 NVSwitch chips, 5/5/4/4 links, a PCIe switch per GPU pair with its two rail NICs
args: export nccl-topo examples/dgx-h100-superpod-su.yaml
covers: spec topo health export render
exit: 0
stdout: tests/cli/expected/export-nccl-dgx-h100.out

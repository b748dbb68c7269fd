# NCCL topology file of the last GB200 NVL72 tray: Grace CPUs, C2C, 18 NVLinks to the off-tray switches
args: export nccl-topo examples/gb200-nvl72.yaml --node 17
covers: spec topo health export render
exit: 0
stdout: tests/cli/expected/export-nccl-gb200.out

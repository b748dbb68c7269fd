# NCCL topology for an Ascend design is refused with the reason
args: export nccl-topo examples/cloudmatrix-384.yaml
covers: spec topo health export render
exit: 2
stderr-has: is Huawei's
stdout-lacks: <system

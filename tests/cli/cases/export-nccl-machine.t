# the machine file gives GPU and NIC bus ids and RDMA names
args: export nccl-topo examples/dgx-h100-superpod-su.yaml --machine tests/fixtures/machine/dgx-h100.txt
covers: spec topo health export render
exit: 0
stdout-has: <pci busid="0000:43:00.0" class="0x030200"
stdout-has: <net name="mlx5_3" dev="1"
stdout-has: <net name="sn_nic3" dev="3"

# the dump's checks as doctor's JSON, without a spec (what NCCL sees)
args: doctor --nccl-topo tests/fixtures/nccl/far-nic.xml --format json
covers: spec hw health render
exit: 0
stdout-has: "name": "nccl.topo.nic_path",
stdout-has: "evidence": "its NIC mlx5_3 (0000:5c:00.0) is SYS",

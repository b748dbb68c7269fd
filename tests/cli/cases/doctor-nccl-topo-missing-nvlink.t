# one NVLink of GPU 2 down: NCCL sees 17, the design has 18
args: doctor --nccl-topo tests/fixtures/nccl/missing-nvlink.xml --spec tests/fixtures/nccl/hgx-h100.yaml
covers: spec hw health render
exit: 1
stdout: tests/cli/expected/doctor-nccl-topo-missing-nvlink.out

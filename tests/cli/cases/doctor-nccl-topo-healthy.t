# NCCL's dump of a healthy HGX H100 node matches the design
args: doctor --nccl-topo tests/fixtures/nccl/healthy.xml --spec tests/fixtures/nccl/hgx-h100.yaml
covers: spec hw health render
exit: 0
stdout: tests/cli/expected/doctor-nccl-topo-healthy.out

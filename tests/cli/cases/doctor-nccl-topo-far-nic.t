# GPU 3's NIC on the far socket: SYS where the design expects PIX/PXB
args: doctor --nccl-topo tests/fixtures/nccl/far-nic.xml --spec tests/fixtures/nccl/hgx-h100.yaml
covers: spec hw health render
exit: 1
stdout: tests/cli/expected/doctor-nccl-topo-far-nic.out

# no IB device: NCCL sees one 100 Gb/s Ethernet port
args: doctor --nccl-topo tests/fixtures/nccl/socket.xml --spec tests/fixtures/nccl/hgx-h100.yaml
covers: spec hw health render
exit: 1
stdout: tests/cli/expected/doctor-nccl-topo-socket.out

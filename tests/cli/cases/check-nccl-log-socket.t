# NET/Socket chosen: no IB device visible to NCCL
args: check --nccl-log tests/fixtures/nccl/socket.log --spec tests/fixtures/nccl/hgx-h100.yaml
covers: spec topo net workload study health bench diagnose store render
exit: 1
stdout: tests/cli/expected/check-nccl-log-socket.out

# NET/Socket chosen: no IB device visible to NCCL
args: check --nccl-log tests/fixtures/nccl/socket.log --spec tests/fixtures/nccl/hgx-h100.yaml
covers: spec topo model health bench diagnose store report
exit: 1
stdout: tests/cli/expected/check-nccl-log-socket.out

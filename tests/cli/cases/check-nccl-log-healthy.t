# NCCL's log of a healthy 2-node job: IB with GDRDMA, P2P within nodes, NVLS
args: check --nccl-log tests/fixtures/nccl/healthy.log --spec tests/fixtures/nccl/hgx-h100.yaml
covers: spec topo net workload study health bench diagnose store render
exit: 0
stdout: tests/cli/expected/check-nccl-log-healthy.out

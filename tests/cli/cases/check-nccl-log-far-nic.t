# GPUDirect RDMA off for the GPU whose NIC is on the far socket
args: check --nccl-log tests/fixtures/nccl/far-nic.log --spec tests/fixtures/nccl/hgx-h100.yaml
covers: spec topo net workload study health bench diagnose store render
exit: 1
stdout: tests/cli/expected/check-nccl-log-far-nic.out

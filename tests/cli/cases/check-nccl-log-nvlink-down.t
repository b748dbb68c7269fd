# GPU 2's peers over SHM where the design has NVLink; NVLS off
args: check --nccl-log tests/fixtures/nccl/nvlink-down.log --spec tests/fixtures/nccl/hgx-h100.yaml
covers: spec topo net workload study health bench diagnose store render
exit: 1
stdout: tests/cli/expected/check-nccl-log-nvlink-down.out

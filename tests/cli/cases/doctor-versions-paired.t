# driver, CUDA runtime and NCCL's build pair up: both pairing checks pass
args: doctor --nvml none --fsroot tests/fixtures/versions/paired
covers: spec hw health render
exit: 0
stdout-has: PASS  version.cuda_pairing  node: CUDA 12.4.1 on driver 550.54.15 (branch 525 or later needed)
stdout-has: PASS  version.nccl_pairing  node: NCCL 2.21.5-1+cuda12.4 built for CUDA 12.4, runtime 12.4.1

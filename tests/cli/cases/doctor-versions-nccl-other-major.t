# NCCL built for CUDA 13 beside a CUDA 12 runtime
args: doctor --nvml none --fsroot tests/fixtures/versions/nccl-other-major
covers: spec hw health render
exit: 1
stdout-has: PASS  version.cuda_pairing  node: CUDA 12.8.1 on driver 570.124.06
stdout-has: FAIL  version.nccl_pairing  node: NCCL 2.27.7-1+cuda13.0 is built for CUDA 13.0; the node has the CUDA 12.8.1 runtime

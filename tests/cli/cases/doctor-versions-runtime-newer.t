# a CUDA 13 runtime on a 535 driver: FAIL naming the rule and its source
args: doctor --nvml none --fsroot tests/fixtures/versions/runtime-newer
covers: spec hw health render
exit: 1
stdout-has: FAIL  version.cuda_pairing  node: CUDA 13.0.1 needs driver branch 580 or later, the node has 535.161.08 [NVIDIA CUDA Compatibility guide
stdout-has: FAIL  version.nccl_pairing  node: NCCL 2.27.7-1+cuda13.0 is built for CUDA 13.0; the node has the CUDA 13.0.1 runtime, driver 535.161.08

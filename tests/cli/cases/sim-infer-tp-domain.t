# tensor parallelism stays within one scale-up domain (8 GPUs on a DGX H100)
args: sim infer examples/dgx-h100-superpod-su.yaml --model llama3-405b --gpus 16 --tp 16 --precision fp8
covers: spec net workload study render
exit: 2
stderr-has: tp 16 does not fit whole in the scale-up domains of 8

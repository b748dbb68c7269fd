# a precision the accelerator lacks is one error naming those it has, with --search too (not a search of no layouts)
args: sim infer examples/cloudmatrix-384.yaml --model deepseek-v3 --gpus 32 --search --precision fp8
covers: spec net workload study render
exit: 2
stderr-has: ascend-910c has no fp8 tensor rate (it has bf16, fp16, int8)
stdout-lacks: searched 0

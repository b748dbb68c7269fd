# Ascend 910C serves INT8 (W8A8): 1-byte weights at its INT8 rate
args: sim infer examples/cloudmatrix-384.yaml --model deepseek-v3 --gpus 32 --search --precision W8A8 --top 3
covers: spec net workload study render
exit: 0
stdout-has: weights int8
stdout-has: best*

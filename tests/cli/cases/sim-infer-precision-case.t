# precision names are names: FP4 as fp4
args: sim infer examples/gb200-nvl72.yaml --model llama3-70b --gpus 8 --tp 8 --precision FP4
covers: spec net workload study render
exit: 0
stdout-has: weights fp4

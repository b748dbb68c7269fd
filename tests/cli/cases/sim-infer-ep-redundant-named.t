# with the 32 redundant experts named, 288 slots, 4 a GPU
args: sim infer examples/gb200-nvl72.yaml --model deepseek-v3 --gpus 72 --tp 72 --ep 72 --dp-attention --redundant-experts 32 --precision fp8
covers: spec net workload study render
exit: 0
stdout-has: 32 redundant experts

# pp divides the layers: Llama 3.1 405B has 126
args: sim infer examples/gb200-nvl72.yaml --model llama3-405b --gpus 32 --tp 8 --pp 4 --precision fp8
covers: spec net workload study render
exit: 2
stderr-has: pp 4 does not divide the 126 layers of llama3-405b

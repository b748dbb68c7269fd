# attention data-parallel is for MoE models: on a dense one it is replicas of tp 1
args: sim infer examples/gb200-nvl72.yaml --model llama3-405b --gpus 72 --tp 9 --dp-attention --precision fp4
covers: spec net workload study render
exit: 2
stderr-has: --dp-attention: llama3-405b has no MoE layers

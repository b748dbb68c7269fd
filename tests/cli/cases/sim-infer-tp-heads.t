# --tp by hand is held to the same rules as the search: the rule named
args: sim infer examples/gb200-nvl72.yaml --model llama3-405b --gpus 72 --tp 9 --precision fp4
covers: spec net workload study render
exit: 2
stderr-has: tp 9 does not divide the 128 attention heads of llama3-405b

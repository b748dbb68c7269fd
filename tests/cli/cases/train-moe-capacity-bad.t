# a capacity factor below 1 (or not a number) is a usage error naming the range
args: sim train examples/gb200-nvl72.yaml --model mixtral-8x7b --gpus 64 --ep 8 --moe-capacity 0.5
covers: spec net workload study render
exit: 2
stderr-has: --moe-capacity: '0.5' (expected a factor from 1 to 64)

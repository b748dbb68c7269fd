# a capacity factor pads every expert: the Mixtral layout of the MoE golden at 1.25 runs slower than forced balance (14707 tokens/s per GPU)
args: sim train examples/gb200-nvl72.yaml --model mixtral-8x7b --gpus 64 --tp 2 --ep 4 --cp 2 --pp 2 --dtype fp8 --recompute selective --zero 1 --sp --moe-capacity 1.25
covers: spec net workload study render
exit: 0
stdout-has:   tokens/s               820528 (12820.7 per accelerator)
stderr-empty:

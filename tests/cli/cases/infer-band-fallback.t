# a class with rows from one source only (small models on Blackwell: TensorRT-LLM's table) gives no band of its own: its parent's stands in, and the line says so
args: sim infer examples/gb200-nvl72.yaml --model qwen3-30b-a3b --gpus 8 --search --precision fp8
covers: spec net workload study render
exit: 0
stdout-has: all serving, 25 rows from 5 sources; small Blackwell: 5 rows from 1 source)
stdout-has: known gap I3

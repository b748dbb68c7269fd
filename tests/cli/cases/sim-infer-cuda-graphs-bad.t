# --cuda-graphs sizes must ascend: a usage error, exit 2
args: sim infer --model llama3-8b --cuda-graphs 64,32
covers: spec net workload study render
exit: 2
stderr-has: --cuda-graphs '64,32': expected up to 64 batch sizes in ascending order

# every sim train figure says how far it can be trusted: the band of its class (MoE on Blackwell, from the public runs compiled into bands.c) beside the tokens/s per GPU, and the known gaps of docs/model.md its layout meets (EP: T4)
args: sim train examples/gb200-nvl72.yaml --model mixtral-8x7b --gpus 64 --tp 2 --ep 4 --cp 2 --pp 2 --dtype fp8 --recompute selective --zero 1 --sp
covers: spec net workload study render
exit: 0
stdout-has: tokens/s per GPU       14,357 (band 10,000-16,000, MoE Blackwell, 11 rows from 4 sources)
stdout-has: known gap T4           EP all-to-all

# a fixed layout within its limits exits 0 and says so
args: sim infer examples/gb200-nvl72.yaml --model llama3-70b --gpus 8 --tp 8 --tpot 70ms
covers: spec net workload study render
exit: 0
stdout-has: TPOT                   64.78 ms, within 70.00 ms

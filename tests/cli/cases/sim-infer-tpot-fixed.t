# a TPOT limit holds without --search: a fixed layout that breaks it says which limit and by how much, and exits 1
args: sim infer examples/gb200-nvl72.yaml --model llama3-70b --gpus 8 --tp 8 --tpot 50ms --ttft 1s
covers: spec net workload study render
exit: 1
stdout-has: TTFT                   28.10 ms, within 1000.00 ms
stdout-has: TPOT                   64.78 ms: LIMIT BROKEN, 14.78 ms over 50.00 ms (+29.6%)

# a TPOT limit holds without --search: a fixed layout that breaks it says which limit and by how much, and exits 1
args: sim infer examples/gb200-nvl72.yaml --model llama3-70b --gpus 8 --tp 8 --tpot 50ms --ttft 1s
exit: 1
stdout-has: TTFT                   29.73 ms, within 1000.00 ms
stdout-has: TPOT                   66.53 ms: LIMIT BROKEN, 16.53 ms over 50.00 ms (+33.1%)

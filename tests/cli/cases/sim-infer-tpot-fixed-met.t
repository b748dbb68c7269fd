# a fixed layout within its limits exits 0 and says so
args: sim infer examples/gb200-nvl72.yaml --model llama3-70b --gpus 8 --tp 8 --tpot 65ms
exit: 0
stdout-has: TPOT                   59.50 ms, within 65.00 ms

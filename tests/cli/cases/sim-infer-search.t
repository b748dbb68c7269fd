# sim infer's search: Mixtral on 8 GB200, the front and the best under a 20 ms TPOT
args: sim infer examples/gb200-nvl72.yaml --model mixtral-8x7b --gpus 8 --search --tpot 20ms --top 8 --precision fp8
exit: 0
stdout-has: 15 on the throughput-latency front
stdout-has:  best*   4   4   1      yes   1024
stdout-has: * on the front

# a TTFT limit no served layout meets at that rate: the search says so and exits 1
args: sim infer examples/gb200-nvl72.yaml --model deepseek-r1 --precision fp8 --kv-precision fp8 --ttft 20ms --search --top 1 --rate 50
covers: spec net workload study render
exit: 1
stdout-has: no layout served meets the limits under the load

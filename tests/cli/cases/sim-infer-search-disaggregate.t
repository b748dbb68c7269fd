# --search --disaggregate: prefill and decode layouts, instance sizes and the P:D split under the limits, per GPU of both pools
args: sim infer examples/gb200-nvl72.yaml --model deepseek-v3 --search --disaggregate --precision fp8 --isl 2000 --osl 100 --tpot 50ms --ttft 2s
exit: 0
stdout-has: prefill: tp
stdout-has: decode:  tp
stdout-has: over all 70 GPUs of both pools
stdout-has: TPOT                   43.61 ms, within 50.00 ms

# the disaggregated search under a rate: prompts queue for the prefill instances (M/D/c), so a TTFT
# limit binds: at 100 requests/s a 30 ms P90 TTFT needs a wider prefill instance (TP 9) than 60 ms (TP 5)
args: sim infer examples/gb200-nvl72.yaml --model deepseek-r1 --precision fp8 --kv-precision fp8 --tpot 50ms --search --disaggregate --rate 100 --ttft 30ms
covers: spec net workload study render
exit: 0
stdout-has: prefill: tp 9  ep 9
stdout-has: under 100 requests/s  TTFT P90 27.5 ms: 2.7 ms queued for a prefill instance (M/D/1)
stdout-lacks: known gap I2

# under a load the limits are judged at the served P90, not on the idle figures: Llama 3 70B on TP 8 at
# 17.5 requests/s has an idle TTFT of 28.1 ms and a full-batch TPOT of 64.78 ms, both within, yet chunked
# prefill beside the decodes takes the served P90 TPOT to 72.66 ms: broken, exit 1
args: sim infer examples/gb200-nvl72.yaml --model llama3-70b --gpus 8 --tp 8 --rate 17.5 --tpot 70ms --ttft 1s
covers: spec net workload study render
exit: 1
stdout-has: TTFT (idle replica)    28.1 ms, one prompt alone
stdout-has: TPOT                   64.78 ms
stdout-has: limits, judged at the served P90 (--slo-percentile)
stdout-has: TTFT                   165.59 ms, within 1000.00 ms
stdout-has: TPOT                   72.66 ms: LIMIT BROKEN, 2.66 ms over 70.00 ms (+3.8%)

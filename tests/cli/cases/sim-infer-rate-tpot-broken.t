# under a load the limits are judged at the served P90, not on the idle figures: Llama 3 70B on TP 8 at
# 18 requests/s has an idle TTFT of 28.1 ms and a full-batch TPOT of 59.50 ms, both within, yet chunked
# prefill beside the decodes takes the served P90 TPOT to 70.17 ms: broken, exit 1
args: sim infer examples/gb200-nvl72.yaml --model llama3-70b --gpus 8 --tp 8 --rate 18 --tpot 65ms --ttft 1s
exit: 1
stdout-has: TTFT (idle replica)    28.1 ms, one prompt alone
stdout-has: TPOT                   59.50 ms
stdout-has: limits, judged at the served P90 (--slo-percentile)
stdout-has: TTFT                   163.11 ms, within 1000.00 ms
stdout-has: TPOT                   70.17 ms: LIMIT BROKEN, 5.17 ms over 65.00 ms (+8.0%)

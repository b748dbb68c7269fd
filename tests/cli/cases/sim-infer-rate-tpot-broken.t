# under a load the limits are judged at the served P90, not on the idle figures: Llama 3 70B on TP 8 at
# 17 requests/s has an idle TTFT of 29.7 ms and a full-batch TPOT of 66.53 ms, both within, yet chunked
# prefill beside the decodes takes the served P90 TPOT to 76.21 ms: broken, exit 1
args: sim infer examples/gb200-nvl72.yaml --model llama3-70b --gpus 8 --tp 8 --rate 17 --tpot 70ms --ttft 1s
exit: 1
stdout-has: TTFT (idle replica)    29.7 ms, one prompt alone
stdout-has: TPOT                   66.53 ms
stdout-has: limits, judged at the served P90 (--slo-percentile)
stdout-has: TTFT                   175.67 ms, within 1000.00 ms
stdout-has: TPOT                   76.21 ms: LIMIT BROKEN, 6.21 ms over 70.00 ms (+8.9%)

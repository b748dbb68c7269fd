# --max-tokens takes a count or trtllm-bench
args: sim infer --model llama3-8b --max-tokens lots
covers: spec net workload study render
exit: 2
stderr-has: --max-tokens 'lots': expected 1 to 1000000 tokens or trtllm-bench

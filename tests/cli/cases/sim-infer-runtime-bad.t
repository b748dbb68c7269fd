# the runtime must be one the model knows
args: sim infer --model llama3-8b --runtime tgi
covers: spec net workload study render
exit: 2
stderr-has: --runtime 'tgi': expected trtllm, vllm or sglang

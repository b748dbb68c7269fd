# JSON of a layout that does not fit: its times and rates are null, never figures
args: sim infer examples/gb200-nvl72.yaml --model deepseek-v3 --gpus 1 --format json
covers: spec net workload study render
exit: 1
stdout-has: "fits": false,
stdout-has: "output_tokens_per_s_per_gpu": null,
stdout-has: "tpot_s": null,

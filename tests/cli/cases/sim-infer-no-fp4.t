# FP4 on an accelerator without FP4 is refused
args: sim infer examples/dgx-h100-superpod-su.yaml --model llama3-70b --precision fp4
covers: spec net workload study render
exit: 2
stderr-has: has no fp4 tensor rate

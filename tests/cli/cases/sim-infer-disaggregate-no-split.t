# --disaggregate without a split and without --search: the split is asked for
args: sim infer examples/gb200-nvl72.yaml --model llama3-70b --disaggregate
covers: spec net workload study render
exit: 2
stderr-has: --disaggregate: expected PREFILL:DECODE GPUs

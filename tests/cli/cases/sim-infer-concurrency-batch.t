# --concurrency and --batch both set the batch
args: sim infer --model llama3-70b --concurrency 5 --batch 3
covers: spec net workload study render
exit: 2
stderr-has: give one

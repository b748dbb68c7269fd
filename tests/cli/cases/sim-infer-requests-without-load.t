# --requests needs a load to simulate
args: sim infer --model llama3-8b --requests 100
covers: spec net workload study render
exit: 2
stderr-has: --requests, --seed and --slo-percentile need a load

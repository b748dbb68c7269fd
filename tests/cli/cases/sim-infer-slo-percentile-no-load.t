# the served percentile needs a load to serve
args: sim infer examples/gb200-nvl72.yaml --model llama3-8b --gpus 1 --tpot 50ms --slo-percentile 99
covers: spec net workload study render
exit: 2
stderr-has: --slo-percentile need a load (--rate or --concurrency)

# a percentile outside 1 to 99.9 is refused
args: sim infer examples/gb200-nvl72.yaml --model llama3-8b --gpus 1 --rate 2 --slo-percentile 100
covers: spec net workload study render
exit: 2
stderr-has: --slo-percentile '100': expected a percentile from 1 to 99.9

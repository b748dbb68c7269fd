# a rate queues the prompts of a searched split, not of a given P:D
args: sim infer examples/gb200-nvl72.yaml --model llama3-8b --disaggregate 2:6 --rate 10
covers: spec net workload study render
exit: 2
stderr-has: not --disaggregate P:D

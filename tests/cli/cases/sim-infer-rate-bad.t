# a rate must be a positive number of requests per second
args: sim infer --model llama3-8b --rate 0
covers: spec net workload study render
exit: 2
stderr-has: --rate '0': expected requests per second above 0

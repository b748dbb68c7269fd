# an open load and a fixed batch cannot both be given
args: sim infer --model llama3-8b --rate 2 --batch 8
covers: spec net workload study render
exit: 2
stderr-has: --rate is an open load

# a prefill:decode split past the spec's accelerators is refused
args: sim infer --model llama3-70b --disaggregate 100000:100000
covers: spec net workload study render
exit: 2
stderr-has: more than the spec's

# a TPOT limit that is not a time is a usage error
args: sim infer --model llama3-70b --tpot fast
covers: spec net workload study render
exit: 2
stderr-has: --tpot 'fast': expected a time

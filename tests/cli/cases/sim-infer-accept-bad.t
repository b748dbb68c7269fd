# an acceptance above 1 is refused
args: sim infer --model deepseek-v3 --mtp 2 --accept 1.5
covers: spec net workload study render
exit: 2
stderr-has: --accept '1.5': expected the share of drafted tokens accepted

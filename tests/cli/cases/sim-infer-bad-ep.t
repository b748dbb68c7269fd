# an expert-parallel width that does not divide tp is a usage error
args: sim infer --model llama3-70b --tp 8 --ep 3
covers: spec net workload study render
exit: 2
stderr-has: ep 3 does not divide tp 8

# --tpot takes a time, parsed as sim infer parses it
args: sweep --set supernode.accelerators=8,16 --model deepseek-r1 --infer --tpot fast
covers: spec net workload study render
exit: 2
stderr-has: --tpot 'fast': expected a time such as 50ms or 2s

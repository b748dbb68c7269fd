# a latency limit without --infer would be ignored by a training sweep: refused
args: sweep --set supernode.accelerators=8,16 --model llama3-8b --tpot 50ms
covers: spec net workload study render
exit: 2
stderr-has: are serving options: add --infer

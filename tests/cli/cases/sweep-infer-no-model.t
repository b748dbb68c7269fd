# sweep --infer serves a model: without --model it is a usage error
args: sweep --set supernode.accelerators=8,16 --infer --tpot 50ms
covers: spec net workload study render
exit: 2
stderr-has: sweep --infer needs --model NAME|FILE

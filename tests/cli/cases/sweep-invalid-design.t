# a value past what the design can be (72 on one tier of 64-port chips):
# refused before any work, with what to change
args: sweep --set supernode.accelerators=8,72 --model llama3-8b
covers: spec net workload study render
exit: 2
stderr-has: value 2 of 2, '72'
stderr-has: expected tiers: 2
stdout-lacks: accels

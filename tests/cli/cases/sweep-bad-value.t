# a value that is not one (abc for a count): a located error, exit 2,
# before any design is predicted
args: sweep --set supernode.accelerators=8,abc,16 --model llama3-8b
covers: spec net workload study render
exit: 2
stderr-has: --set supernode.accelerators: value 2 of 3, 'abc':
stderr-has: 'abc' is not a number
stdout-lacks: accels

# a key the spec does not have: every value refused, exit 2
args: sweep --set supernode.acelerators=8,16 --model llama3-8b
covers: spec net workload study render
exit: 2
stderr-has: acelerators

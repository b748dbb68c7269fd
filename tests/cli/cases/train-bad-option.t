# an unknown recompute mode
args: sim train --model llama3-8b --recompute some
covers: spec net workload study render
exit: 2
stderr-has: --recompute: unknown value 'some'

# --software names a profile; an unknown one is a usage error with a did-you-mean
args: sim train --model llama3-8b --software torchtitn
covers: spec net workload study render
exit: 2
stderr-has: --software: unknown software 'torchtitn' (did you mean 'torchtitan'?)
stdout-empty:

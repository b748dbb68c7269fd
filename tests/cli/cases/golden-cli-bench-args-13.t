# bench rejects bad options before it runs anything: coll --inject nope
args: bench coll --inject nope
covers: spec net workload study bench render
exit: 2
stderr-has: --inject: unknown fault 'nope' (expected hang:rank=R, die:rank=R or corrupt:rank=R)
stdout-lacks: rank

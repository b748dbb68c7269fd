# bench rejects bad options before it runs anything: coll -w x
args: bench coll -w x
covers: spec net workload study bench render
exit: 2
stderr-has: -w: 'x' is not a whole number
stdout-lacks: rank

# bench rejects bad options before it runs anything: coll -n
args: bench coll -n
covers: spec net workload study bench render
exit: 2
stderr-has: -n needs a value
stdout-lacks: rank

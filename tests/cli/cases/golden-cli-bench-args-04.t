# bench rejects bad options before it runs anything: coll --timeout x
args: bench coll --timeout x
covers: spec net workload study bench render
exit: 2
stderr-has: --timeout: 'x' is not a duration such as 30 or 5min
stdout-lacks: rank

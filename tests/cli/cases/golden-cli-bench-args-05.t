# bench rejects bad options before it runs anything: coll -f 1
args: bench coll -f 1
covers: spec net workload study bench render
exit: 2
stderr-has: -f: '1' is not a step factor above 1
stdout-lacks: rank

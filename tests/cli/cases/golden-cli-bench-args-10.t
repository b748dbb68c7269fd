# bench rejects bad options before it runs anything: coll -o max2
args: bench coll -o max2
covers: spec net workload study bench render
exit: 2
stderr-has: -o: unknown reduction 'max2' (expected sum, max or min)
stdout-lacks: rank

# bench rejects bad options before it runs anything: coll --frob 1
args: bench coll --frob 1
covers: spec net workload study bench render
exit: 2
stderr-has: bench: unknown option '--frob' (see 'supernode help bench')
stdout-lacks: rank

# bench rejects bad options before it runs anything: coll --backend gpu9
args: bench coll --backend gpu9
covers: spec net workload study bench render
exit: 2
stderr-has: unknown backend 'gpu9' (expected cpu or cuda)
stdout-lacks: rank

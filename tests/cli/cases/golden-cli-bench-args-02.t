# bench rejects bad options before it runs anything: coll --no-check -c 1
args: bench coll --no-check -c 1
covers: spec net workload study bench render
exit: 2
stderr-has: -c 1 and --no-check contradict each other; give one
stdout-lacks: rank

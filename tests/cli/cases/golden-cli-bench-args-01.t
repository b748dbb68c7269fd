# bench rejects bad options before it runs anything: coll -c 1 --no-check
args: bench coll -c 1 --no-check
covers: spec net workload study bench render
exit: 2
stderr-has: -c 1 and --no-check contradict each other; give one
stdout-lacks: rank

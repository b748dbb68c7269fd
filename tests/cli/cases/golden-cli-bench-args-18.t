# bench rejects bad options before it runs anything: pairs --lat-size 0
args: bench pairs --lat-size 0
covers: spec net workload study bench render
exit: 2
stderr-has: --lat-size: a size of 0 bytes (give at least 1, such as 8 or 1M)
stdout-lacks: rank

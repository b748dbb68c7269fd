# bench rejects bad options before it runs anything: coll -b 1Q
args: bench coll -b 1Q
covers: spec net workload study bench render
exit: 2
stderr-has: -b: '1Q' is not a size such as 8, 1M or 16G
stdout-lacks: rank

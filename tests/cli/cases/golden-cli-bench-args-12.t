# bench rejects bad options before it runs anything: coll -r -1
args: bench coll -r -1
covers: spec net workload study bench render
exit: 2
stderr-has: -r: -1 is out of range (expected 0 to 16777216)
stdout-lacks: rank

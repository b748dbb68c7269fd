# bench rejects bad options before it runs anything: coll -d float9
args: bench coll -d float9
covers: spec net workload study bench render
exit: 2
stderr-has: -d: unknown data type 'float9' (did you mean 'float'?)
stdout-lacks: rank

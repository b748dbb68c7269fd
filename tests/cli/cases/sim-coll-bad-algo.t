# a misspelt algorithm: the nearest name
args: sim coll --algo hire
covers: spec topo net workload study render
exit: 2
stderr-has: unknown algorithm 'hire' (did you mean 'hier'?)

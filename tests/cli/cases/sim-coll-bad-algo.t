# a misspelt algorithm: the nearest name
args: sim coll --algo hire
exit: 2
stderr-has: unknown algorithm 'hire' (did you mean 'hier'?)

# a misspelt test name is bad usage, with a suggestion, before MPI starts
args: bench colll
covers: spec net workload study bench render
exit: 2
stderr-has: unknown test 'colll' (did you mean 'coll'?)

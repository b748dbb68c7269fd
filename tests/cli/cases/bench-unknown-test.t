# a misspelt test name is bad usage, with a suggestion, before MPI starts
args: bench colll
covers: spec model bench report
exit: 2
stderr-has: unknown test 'colll' (did you mean 'coll'?)

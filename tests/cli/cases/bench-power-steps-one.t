# a sweep needs two points at least
args: bench power --steps 1
covers: hw bench
exit: 2
stderr-has: --steps

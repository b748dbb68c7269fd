# a sweep is of power limits or of clocks, not both
args: bench power --limits 300,400 --clocks 1410
covers: hw bench
exit: 2
stderr-has: give one

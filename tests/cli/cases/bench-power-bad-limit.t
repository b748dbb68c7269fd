# a limit is a whole number of watts
args: bench power --limits 300,abc
covers: hw bench
exit: 2
stderr-has: --limits

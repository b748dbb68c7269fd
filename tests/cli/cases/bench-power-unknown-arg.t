# bench power takes options only
args: bench power compute
covers: hw bench
exit: 2
stderr-has: bench power: unknown argument 'compute'

# a misspelt --dtype: the nearest nccl-tests name
args: sim coll --dtype flaot
covers: spec topo net workload study render
exit: 2
stderr-has: --dtype: unknown data type 'flaot' (did you mean 'float'?)

# a misspelt collective: the nearest name, as bench --ops says it
args: sim coll --op allscatter
covers: spec topo net workload study render
exit: 2
stderr-has: unknown collective 'allscatter' (did you mean 'allgather'?)

# --degrade needs a fraction above 0 and at most 1
args: sim coll --degrade L000000=1.5
covers: spec topo net workload study render
exit: 2
stderr-has: the fraction must be above 0 and at most 1

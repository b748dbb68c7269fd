# 80 ranks are 10 servers: pods of 4, 4 and 2, so no three levels
args: sim coll tests/fixtures/specs/coll-pods.yaml --ranks 80 -b 1M -e 1M --algo hier3
covers: spec topo net workload study render
exit: 2
stderr-has: algorithm hier3 does not apply to allreduce on this group: it needs two or more of the group's domains under each pod's leaf switches, the same number in each (here 3 pods of 2 to 4 domains)

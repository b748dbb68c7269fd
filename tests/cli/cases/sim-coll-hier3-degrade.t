# a leaf-spine link at half its rate carries a quarter of each of its
# leaf's 4 cross-pod flows: three levels drop from 191.05 to 174.79 GB/s
# (the nominal beside); two levels, one flow a leaf up, would not change
args: sim coll tests/fixtures/specs/coll-pods.yaml -b 256M -e 256M --algo hier3 --degrade L002432=0.5
covers: spec topo net workload study render
exit: 0
stdout-has: # degraded L002432 net.r04.u01.leaf0.p4~net.r04.u33.spine0.p0
stdout-has: 174.79   191.05  hier3  Simple  scale-out
stderr-empty:

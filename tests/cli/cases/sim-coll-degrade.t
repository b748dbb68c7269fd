# a NIC uplink at half its rate halves the one rail that crosses it and
# no other: rail 3 drops from 47.56 to 24.01, the nominal shown beside
args: sim coll examples/dgx-h100-superpod-su.yaml --group rail:3 -b 1G -e 1G --degrade L004467=0.5
covers: spec topo net workload study render
exit: 0
stdout-has: # degraded L004467 sn0.r00.u01.nic3.p0~net.r08.u04.leaf3.p0
stdout-has: 24.01    47.56  hier  Simple  scale-out
stderr-empty:

# sim pairs on the built-in design: 65,280 ordered pairs in three classes
# (same server, same supernode, across the network), each with its count
args: sim pairs
covers: spec topo net workload study render
exit: 0
stdout-has: # supernode sim pairs: 256 accelerators, 65280 ordered pairs in classes of equal expectations, seed-64
stdout-has:  1792         0    1  sn0.r00.u01.gpu0  sn0.r00.u01.gpu1  server    164.8  329.6    7.20     2  scale-up    L000000
stdout-has: 14336         0    8  sn0.r00.u01.gpu0  sn0.r00.u09.gpu0  domain    164.8  329.6    7.20     2  scale-up    L000000
stdout-has: 49152         0   64  sn0.r00.u01.gpu0  sn1.r02.u01.gpu0  network    97.0  194.0    9.30     4  scale-out   L002048
stderr-empty:

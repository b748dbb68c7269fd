# three levels on 4 pods of 4 DGX H100 (one rail of 4 servers a leaf):
# at 256 MB 191.05 GB/s busbw against 181.25 for two levels, which choose
# between a rail ring of 30 network steps and a tree moving twice the
# bytes; three levels move the ring's bytes in 12 steps
args: sim coll tests/fixtures/specs/coll-pods.yaml -b 64K -e 256M -f 64 --algo hier3
covers: spec topo net workload study render
exit: 0
stdout-has:     65536     16384  float  sum      -1    56.62   1.16    2.30  hier3  LL      scale-out
stdout-has: 268435456  67108864  float  sum      -1  2788.10  96.28  191.05  hier3  Simple  scale-out   0.45
stderr-empty:

# tiers: 2 asked for is kept (8 rail leaves and a spine for the 32
# ports): the cross-rail pair crosses the spine, 6 hops, one NIC
args: sim pairs tests/fixtures/plan/hgx-h200-x4-rail.yaml --classes --set scaleout.tiers=2
covers: spec topo net workload study render
exit: 0
stdout-has:   672         0    9  sn0.r00.u01.gpu0  sn1.r00.u09.gpu1  network    48.5   97.0    9.30     6  scale-out

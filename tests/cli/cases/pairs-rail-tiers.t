# a pair's bandwidth follows the cabling planned: 4 HGX servers x 8 rails
# fit one 64-port switch with tiers: 1, and a cross-rail pair gets one NIC
# (48.5 GB/s), as through the spine of tiers: 2 (it read 97 with one
# switch a rail and the pair split over two NICs)
args: sim pairs tests/fixtures/plan/hgx-h200-x4-rail.yaml --classes --set scaleout.tiers=1
covers: spec topo net workload study render
exit: 0
stdout-has: sn0.r00.u01.gpu0  sn1.r00.u09.gpu0  network    48.5   97.0
stdout-lacks: 194.0

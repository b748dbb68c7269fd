# against a baseline of two healthy runs the halved link fails on three grounds
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-2.json --db $TMP/r.db
setup: $SUPERNODE baseline save accept --run 1 --run 2 --force --db $TMP/r.db
args: check --spec examples/cpu-cluster.yaml --results tests/fixtures/check/run-host0-half.json --baseline accept --db $TMP/r.db
covers: spec topo net workload study health bench diagnose store render
exit: 1
stdout-has: (design, baseline and peers)
stdout-has: FAIL link L000000  sn0.r00.u01.nic0.p0~net.r02.u01.leaf0.p0
stdout-lacks: L000004

# a halved host link: FAIL on its cable label, in JSON and JUnit too
args: check --spec examples/cpu-cluster.yaml --results tests/fixtures/check/run-host0-half.json --db $TMP/r.db --json $TMP/c.json --junit $TMP/c.xml
covers: spec topo net workload study health bench diagnose store render
exit: 1
stdout-has: run 1 on cpu-cluster, quick suite, 4 ranks
stdout-has: FAIL link L000000  sn0.r00.u01.nic0.p0~net.r02.u01.leaf0.p0
file: $TMP/c.json
file-has: "schema": "supernode.check/1"
file-has: "label": "sn0.r00.u01.nic0.p0~net.r02.u01.leaf0.p0"
file: $TMP/c.xml
file-has: <failure type="link"

# --no-store judges without a database
args: check --spec examples/cpu-cluster.yaml --results tests/fixtures/check/run-healthy-2.json --no-store --db $TMP/r.db
covers: spec topo net workload study health bench diagnose store render
exit: 0
stdout-has: check: PASS
no-file: $TMP/r.db

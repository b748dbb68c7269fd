# a spec that does not load: its error, exit 2
args: check --spec tests/fixtures/check/run-healthy-1.json --run 1 --db $TMP/r.db
covers: spec topo net workload study health bench diagnose store render
exit: 2
stderr-has: tests/fixtures/check/run-healthy-1.json

# a misspelt baseline: exit 2 with a suggestion
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE baseline save accept --force --db $TMP/r.db
args: check --spec examples/cpu-cluster.yaml --run 1 --baseline acept --db $TMP/r.db
covers: spec topo net workload study health bench diagnose store render
exit: 2
stderr-has: no baseline 'acept' (did you mean 'accept'?)

# a run judged against another design than the one it was measured on
# says so (the judging goes on: the cpu backend cannot measure its NVLink,
# so a WARN)
args: check --spec examples/seed-64.yaml --results tests/fixtures/check/run-healthy-1.json --no-store
covers: spec topo net workload study health bench diagnose store render
stderr-has: note: the run was measured on spec 'cpu-cluster' (hash 52465cc618390950) and is judged against 'seed-64'
exit: 0

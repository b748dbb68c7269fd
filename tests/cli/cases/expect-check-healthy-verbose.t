# a healthy run judged from its file, every finding and note in full:
# pins the design values check gives pairs and devices
args: check --spec examples/cpu-cluster.yaml --results tests/fixtures/check/run-healthy-1.json --no-store --verbose
covers: spec topo net workload study health bench diagnose store render
exit: 0
stdout: tests/cli/expected/expect-check-healthy-verbose.out

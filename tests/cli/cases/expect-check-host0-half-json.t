# the halved host link judged into JSON on stdout: pins every result's
# design value, reference and source as check computes them
args: check --spec examples/cpu-cluster.yaml --results tests/fixtures/check/run-host0-half.json --no-store --json /dev/stdout
covers: spec topo net workload study health bench diagnose store render
exit: 1
stdout: tests/cli/expected/expect-check-host0-half-json.out

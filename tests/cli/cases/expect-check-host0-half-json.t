# the halved host link judged into JSON on stdout: pins every result's
# design value, reference and source as check computes them
args: check --spec examples/cpu-cluster.yaml --results tests/fixtures/check/run-host0-half.json --no-store --json /dev/stdout
covers: spec topo model health bench diagnose store report
exit: 1
stdout: tests/cli/expected/expect-check-host0-half-json.out

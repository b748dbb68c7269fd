# sim coll's JSON, whole
args: sim coll examples/gb200-nvl72.yaml --format json -b 1K -e 1M -f 4
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-cli-sim-coll-json.out

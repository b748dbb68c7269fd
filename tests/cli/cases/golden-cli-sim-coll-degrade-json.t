# sim coll's JSON with a failed link, whole
args: sim coll examples/gb200-nvl72.yaml --fail L000000 --format json -b 1M -e 4M --algo ring
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-cli-sim-coll-degrade-json.out

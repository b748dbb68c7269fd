# sim pairs' JSON, whole
args: sim pairs tests/fixtures/specs/coll-dgx-h100.yaml --ranks 8 --format json
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-cli-sim-pairs-json.out

# sim pairs --classes as JSON, multi-tier, whole (pins the flow engine before model/flow.c is split)
args: sim pairs examples/dgx-h100-superpod-4su.yaml --classes --format json
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-flow-pairs-classes-json-4su.out
stderr-empty:

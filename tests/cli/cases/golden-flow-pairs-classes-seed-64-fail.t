# sim pairs --classes with a scale-up link failed and a site uplink degraded, whole (pins the flow engine before model/flow.c is split)
args: sim pairs examples/seed-64.yaml --classes --fail L000001 --degrade L002048=25%
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-flow-pairs-classes-seed-64-fail.out
stderr-empty:

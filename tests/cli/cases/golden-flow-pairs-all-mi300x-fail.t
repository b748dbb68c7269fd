# sim pairs --all with a board link failed and another degraded, whole (pins the flow engine before model/flow.c is split)
args: sim pairs examples/mi300x-16-servers.yaml --all --ranks 16 --fail L000000 --degrade L000028=0.5
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-flow-pairs-all-mi300x-fail.out
stderr-empty:

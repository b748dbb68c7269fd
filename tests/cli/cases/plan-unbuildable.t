# a design the network cannot carry: exit 2 with file:line:col, no files
args: plan tests/fixtures/plan/fat-tree-too-big.yaml --dot $TMP/t.dot
covers: spec topo plan render
exit: 2
stderr-has: fat-tree-too-big.yaml:16:10:
stderr-has: tiers
no-file: $TMP/t.dot

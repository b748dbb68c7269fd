# sim coll on a server, broadcast, whole
args: sim coll examples/dgx-h100-superpod-su.yaml --group node:2 --op broadcast -b 8 -e 64K
covers: spec topo net workload study render
exit: 0
stdout: tests/cli/expected/golden-cli-sim-coll-node.out

# single-node domains: a note, no labels, exit 0
args: export k8s examples/mi300x-16-servers.yaml
covers: spec topo export render
exit: 0
stdout-lacks: kubectl label
stderr-has: no labels to set

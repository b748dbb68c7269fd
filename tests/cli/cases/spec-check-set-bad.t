# a --set that does not validate: exit 2 and the reason
args: spec check --set supernode.per_node=7
covers: spec render
exit: 2
stderr-has: supernode.accelerators 64 is not a multiple of per_node 7 (expected whole nodes) (after --set supernode.per_node=7)

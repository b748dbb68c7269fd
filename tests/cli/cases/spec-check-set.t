# --set overrides a value by its dotted key, then validates again
args: spec check --set supernode.accelerators=32 --set supernodes=8
covers: spec render
exit: 0
stdout-has: 8 x 32 h200-sxm-141gb = 256 accelerators in 32 nodes

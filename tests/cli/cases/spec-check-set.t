# --set overrides a value by its dotted key, then validates again
args: spec check --set supernode.accelerators=128 --set supernodes=2
exit: 0
stdout-has: 2 x 128 h200-sxm-141gb = 256 accelerators in 32 nodes

# plan takes --set as spec and sweep do: the default design at 32 a
# supernode
args: plan --set supernode.accelerators=32
covers: spec topo plan render
exit: 0
stdout-has: 4 supernodes x 32 H200-SXM-141GB = 128 accelerators in 16 servers

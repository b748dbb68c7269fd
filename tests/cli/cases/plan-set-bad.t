# a --set that names no key is a located error, exit 2
args: plan --set supernode.acelerators=32
covers: spec topo plan render
exit: 2
stderr-has: (after --set supernode.acelerators=32)

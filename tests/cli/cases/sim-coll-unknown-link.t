# --fail with a label that is not in the ledger: exit 2, nothing printed
args: sim coll --fail L999999999
covers: spec topo net workload study render
exit: 2
stderr-has: no link labelled 'L999999999'
stdout-lacks: size

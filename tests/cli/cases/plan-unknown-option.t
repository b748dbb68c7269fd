# an unknown option is a usage error that points at help
args: plan --ledgr x.csv
covers: spec topo plan render
exit: 2
stderr-has: plan: unknown option '--ledgr'

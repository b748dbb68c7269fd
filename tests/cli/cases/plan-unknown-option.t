# an unknown option is a usage error that points at help
args: plan --ledgr x.csv
exit: 2
stderr-has: plan: unknown option '--ledgr'

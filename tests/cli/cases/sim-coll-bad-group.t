# a misspelt group name gets a suggestion
args: sim coll --group doman
covers: spec topo net workload study render
exit: 2
stderr-has: unknown group 'doman' (did you mean 'domain'?)

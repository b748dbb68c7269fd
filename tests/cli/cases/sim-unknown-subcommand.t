# a misspelt subcommand gets a suggestion
args: sim col
covers: spec topo net workload study render
exit: 2
stderr-has: unknown sim subcommand 'col' (did you mean 'coll'?)

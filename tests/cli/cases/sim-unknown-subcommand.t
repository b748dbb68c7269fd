# a misspelt subcommand gets a suggestion
args: sim col
covers: spec topo model report
exit: 2
stderr-has: unknown sim subcommand 'col' (did you mean 'coll'?)

# a misspelt command gets a suggestion and exit 2
args: versoin
covers: util
exit: 2
stderr-has: unknown command 'versoin' (did you mean 'version'?)

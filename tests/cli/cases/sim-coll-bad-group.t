# a misspelt group name gets a suggestion
args: sim coll --group doman
exit: 2
stderr-has: unknown group 'doman' (did you mean 'domain'?)

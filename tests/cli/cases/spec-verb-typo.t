# a misspelt verb gets a suggestion
args: spec chek
covers: spec render
exit: 2
stderr-has: unknown spec verb 'chek' (did you mean 'check'?)

# a misspelt verb gets a suggestion
args: spec chek
exit: 2
stderr-has: unknown spec verb 'chek' (did you mean 'check'?)

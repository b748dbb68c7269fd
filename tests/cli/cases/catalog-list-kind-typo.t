# a misspelt kind gets a suggestion and exit 2
args: catalog list acelerators
covers: spec render catalog
exit: 2
stderr-has: unknown catalog kind 'acelerators' (did you mean 'accelerators'?)

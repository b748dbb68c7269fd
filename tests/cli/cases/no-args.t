# no command: the overview on stderr, exit 2
covers: util
args:
exit: 2
stderr-has: usage: supernode

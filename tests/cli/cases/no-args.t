# no command: the overview on stderr, exit 2
args:
exit: 2
stderr-has: usage: supernode

# baseline needs a subcommand
args: baseline
exit: 2
stderr-has: baseline needs a subcommand (save, list, show or diff)

# baseline needs a subcommand
args: baseline
covers: diagnose store render
exit: 2
stderr-has: baseline needs a subcommand (save, list, show or diff)

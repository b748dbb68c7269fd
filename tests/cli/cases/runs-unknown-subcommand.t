# runs has three subcommands
args: runs delete 1
covers: store render
exit: 2
stderr-has: runs: unknown subcommand 'delete' (expected list, show or import)

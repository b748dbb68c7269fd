# events needs list or show
args: events purge
exit: 2
stderr-has: list

# events needs list or show
args: events purge
covers: store render
exit: 2
stderr-has: list

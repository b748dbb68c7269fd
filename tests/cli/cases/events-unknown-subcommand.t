# events needs list or show
args: events purge
covers: store report
exit: 2
stderr-has: list

# a file that does not exist: exit 2 with its name
args: validate tests/fixtures/validation/no-such.csv
covers: net workload study render
exit: 2
stderr-has: no-such.csv

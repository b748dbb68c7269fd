# a file that does not exist: exit 2 with its name
args: validate tests/fixtures/validation/no-such.csv
covers: model report
exit: 2
stderr-has: no-such.csv

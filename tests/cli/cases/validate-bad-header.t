# a CSV without the expected columns: located error, exit 2
args: validate tests/fixtures/validation/bad-header.csv
covers: net workload study render
exit: 2
stderr-has: tests/fixtures/validation/bad-header.csv:1: the header has no 'model' column

# validate needs a file
args: validate
covers: net workload study render
exit: 2
stderr-has: validate needs a FILE.csv

# validate needs a file
args: validate
covers: model report
exit: 2
stderr-has: validate needs a FILE.csv

# validate needs a file
args: validate
exit: 2
stderr-has: validate needs a FILE.csv

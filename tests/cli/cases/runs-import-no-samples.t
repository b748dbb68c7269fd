# a result without samples is refused with its position; no database is made
args: runs import tests/fixtures/check/bad-run-no-samples.json --db $TMP/r.db
covers: store render
exit: 2
stderr-has: tests/fixtures/check/bad-run-no-samples.json:
stderr-has: 'samples' must be a non-empty list of numbers
no-file: $TMP/r.db

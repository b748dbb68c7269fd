# validate --bands writes C source: --format json with it is a usage error, and a file given twice (its rows counted twice) too
args: validate --bands tests/fixtures/validation/training-public.csv tests/fixtures/validation/training-public.csv -o $TMP/b.c
covers: net workload study render
exit: 2
stderr-has: validate --bands: 'tests/fixtures/validation/training-public.csv' given twice
no-file: $TMP/b.c

# several files only with --bands
args: validate tests/fixtures/validation/training-public.csv tests/fixtures/validation/inference-public.csv
exit: 2
stderr-has: validate takes one FILE.csv

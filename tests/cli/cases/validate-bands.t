# the band table compiled into the predictors (src/lib/study/bands.c) is what --bands makes of the public files today: a model change that moves a residual fails here until the table is regenerated (the command is in the file's head)
args: validate --bands tests/fixtures/validation/training-public.csv tests/fixtures/validation/moe-training-public.csv tests/fixtures/validation/inference-public.csv
covers: net workload study render
exit: 0
stdout: src/lib/study/bands.c
stderr-empty:

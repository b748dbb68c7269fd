# rows that cannot be predicted are listed with the reason, never dropped
args: validate tests/fixtures/validation/mixed.csv
covers: net workload study render
exit: 2
stdout-has: 1 of 3 rows predicted
stdout-has: not predicted: no built-in system for gpu 'TPU v9' with 8 GPUs
stdout-has: not predicted: metric 'time_to_train_min' is not predicted
stderr-has: mixed.csv:3: no built-in system for gpu 'TPU v9' with 8 GPUs: add the accelerator to the catalog

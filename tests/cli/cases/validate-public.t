# the public calibration set: every row predicted; Korthikanti Table 5
# within 4% and the whole set's median within 10% are asserted by
# tests/unit/test-train-validate.c, this checks the command's report
args: validate tests/fixtures/validation/training-public.csv
covers: net workload study render
exit: 0
stdout-has: 94 of 94 rows predicted; absolute error: median
stdout-has: by source
stdout-has: layout ranking (same source, model and GPU count)
stdout-has: GPT-175B    512       11
stderr-empty:

# JSON: rows with predicted, measured and error_pct, and the summary
args: validate tests/fixtures/validation/mixed.csv --format json
covers: net workload study render
exit: 2
stdout-has: "schema": "supernode.validate/2",
stdout-has: "median_abs_error_pct":
stdout-has: "mean_abs_error_pct":
stdout-has: "error_pct":
stdout-has: "reason": "no built-in system for gpu 'TPU v9' with 8 GPUs: add
stderr-has: mixed.csv:3: no built-in system for gpu 'TPU v9' with 8 GPUs: add the accelerator to the catalog

# no row predicted, JSON: the figures are null, never nan; exit 1
args: validate tests/fixtures/validation/none-predicted.csv --format json
covers: net workload study render
exit: 1
stdout-has: "median_abs_error_pct": null,
stdout-lacks: nan
stderr-has: none-predicted.csv: no row could be predicted

# no row predicted: no nan figures, a message, exit 1 (nothing was compared, so not a pass)
args: validate tests/fixtures/validation/none-predicted.csv
covers: net workload study render
exit: 1
stdout-has: 0 of 1 rows predicted: no error to report
stdout-lacks: nan
stderr-has: none-predicted.csv: no row could be predicted

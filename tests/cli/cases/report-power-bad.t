# a file that is not a bench power document is a located error, and no
# page is written
args: report --power tests/fixtures/validation/mixed.csv -o $TMP/r.html
covers: spec topo net workload study bench store html render
exit: 2
stderr-has: tests/fixtures/validation/mixed.csv:1:6: '[' or '{' expected
no-file: $TMP/r.html

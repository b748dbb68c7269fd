# a spec that does not exist: exit 2, nothing written
args: plan $TMP/nope.yaml --ledger $TMP/ledger.csv -o $TMP/plan.json
covers: spec topo plan render
exit: 2
stderr-has: nope.yaml: cannot open
no-file: $TMP/ledger.csv
no-file: $TMP/plan.json

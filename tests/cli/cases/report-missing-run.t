# a run the store does not hold is refused, and no page is written
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
args: report --db $TMP/r.db --run 99 -o $TMP/r.html
covers: spec topo net workload study bench store html render
exit: 2
no-file: $TMP/r.html
stderr-has: no run 99 (see 'supernode runs list')

# a stored healthy run judged again: PASS, exit 0
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
args: check --spec examples/cpu-cluster.yaml --run 1 --db $TMP/r.db
covers: spec topo net workload study health bench diagnose store render
exit: 0
stdout-has: check: PASS, 0 findings from 28 results (design and peers; no baseline)
stdout-has: pairs:   6 PASS

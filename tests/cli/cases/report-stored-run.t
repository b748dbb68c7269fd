# a stored run's section: the heatmap with host 0's pairs near half the
# design, the latency and memory figures, and the history of three runs
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-2.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-host0-half.json --db $TMP/r.db
args: report examples/cpu-cluster.yaml --db $TMP/r.db --run 3 -o $TMP/r.html
covers: spec topo net workload study bench store html render
exit: 0
file: $TMP/r.html
file-has: <figure id="run3-pairs">
file-has: <figure id="run3-lat0">
file-has: <figure id="run3-dev0">
file-has: <title>rank 0 → 2: 45.1% (5.63 MB/s of 12.5 MB/s)</title>
file-has: <section id="history">

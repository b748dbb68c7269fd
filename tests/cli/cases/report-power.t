# bench power's curve from its JSON document: the power section alone,
# the two verdicts recomputed from the points and named with their limits
args: report --power tests/fixtures/power/h100-limits.json -o $TMP/r.html
covers: spec topo net workload study bench store html render
exit: 0
file: $TMP/r.html
file-has: <section id="power">
file-has: best efficiency, 400 W
file-has: within 5%, 600 W
stderr-empty:

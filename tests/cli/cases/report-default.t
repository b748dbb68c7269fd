# without SPEC the built-in design is drawn into one page, written whole
args: report -o $TMP/r.html
covers: spec topo net workload study bench store html render
exit: 0
file: $TMP/r.html
file-has: <!doctype html>
file-has: <title>seed-64</title>
file-has: spec &lt;default&gt;
stderr-empty:

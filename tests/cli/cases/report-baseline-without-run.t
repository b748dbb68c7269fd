# a baseline is compared with runs: --baseline alone is a usage error
args: report --baseline nightly -o $TMP/r.html
covers: spec topo net workload study bench store html render
exit: 2
stderr-has: --baseline compares runs (give --run ID)
no-file: $TMP/r.html

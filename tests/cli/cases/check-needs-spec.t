# the spec is what a run is judged against
args: check --suite quick
covers: spec topo net workload study health bench diagnose store render
exit: 2
stderr-has: --spec SPEC is required

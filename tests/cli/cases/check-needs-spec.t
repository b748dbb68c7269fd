# the spec is what a run is judged against
args: check --suite quick
covers: spec topo model health bench diagnose store report
exit: 2
stderr-has: --spec SPEC is required

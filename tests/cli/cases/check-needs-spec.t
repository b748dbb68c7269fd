# the spec is what a run is judged against
args: check --suite quick
exit: 2
stderr-has: --spec SPEC is required

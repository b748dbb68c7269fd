# no run to take a baseline from
args: baseline save accept --db $TMP/r.db
covers: diagnose store render
exit: 2
stderr-has: no complete run yet (run 'supernode check' first)

# one run is no baseline: its noise says nothing of run-to-run noise (a
# lone run let the next check FAIL at z -24.9); exit 2, nothing saved
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
args: baseline save accept --db $TMP/r.db
covers: diagnose store render
exit: 2
stderr-has: not a sound baseline: 1 run where a baseline needs 3
stderr-has: or --force

# baselines by name with their runs and subject counts
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE baseline save accept --force --db $TMP/r.db
args: baseline list --db $TMP/r.db
covers: diagnose store render
exit: 0
stdout-has: NAME    CREATED
stdout-has: cpu-cluster        28

# an event that is not there
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
args: events show 9 --db $TMP/r.db
covers: store render
exit: 2
stderr-has: no event 9

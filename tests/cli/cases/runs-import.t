# a "supernode.run/1" document becomes a new run
args: runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
covers: store render
exit: 0
stdout-has: run 1: imported 28 results from tests/fixtures/check/run-healthy-1.json
file: $TMP/r.db

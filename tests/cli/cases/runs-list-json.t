# runs list --format json is a versioned document with counts
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
args: runs list --db $TMP/r.db --format json
covers: store render
exit: 0
stdout-has: "schema": "supernode.runs/1"
stdout-has: "nresults": 28
stdout-lacks: "samples"

# a document of another kind is not a run
args: runs import tests/fixtures/check/bad-run-schema.json --db $TMP/r.db
covers: store render
exit: 2
stderr-has: schema 'supernode.bench/1' is not a run (expected "supernode.run/1")
no-file: $TMP/r.db

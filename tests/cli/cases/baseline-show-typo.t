# a misspelt baseline name gets a suggestion
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE baseline save acceptance --force --db $TMP/r.db
args: baseline show acceptence --db $TMP/r.db
covers: diagnose store render
exit: 2
stderr-has: no baseline 'acceptence' (did you mean 'acceptance'?)

# names are letters, digits, '.', '_' and '-'
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
args: baseline save "after upgrade" --force --db $TMP/r.db
covers: diagnose store render
exit: 2
stderr-has: baseline name 'after upgrade' has ' ' (expected letters, digits, '.', '_' or '-')

# an empty database (a file with nothing stored yet) lists no runs and says what to do
setup: touch $TMP/r.db
args: runs list --db $TMP/r.db
covers: store render
exit: 0
stdout-has: no runs yet (run 'supernode check' first)
stderr-empty:

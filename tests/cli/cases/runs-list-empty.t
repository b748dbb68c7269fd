# an empty database lists no runs and says what to do
args: runs list --db $TMP/r.db
exit: 0
stdout-has: no runs yet (run 'supernode check' first)
stderr-empty:

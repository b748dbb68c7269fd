# a file that is not a results database is refused and left alone
setup: printf 'not sqlite at all, just text\n%.0s' $(seq 200) > $TMP/r.db
args: runs list --db $TMP/r.db
covers: store render
exit: 2
stderr-has: not a supernode results database

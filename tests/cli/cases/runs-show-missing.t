# a run that does not exist: exit 2 and a pointer to runs list
setup: touch $TMP/r.db
args: runs show 7 --db $TMP/r.db
covers: store render
exit: 2
stderr-has: no run 7 (see 'supernode runs list')

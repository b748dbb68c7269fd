# a run that does not exist: exit 2 and a pointer to runs list
args: runs show 7 --db $TMP/r.db
exit: 2
stderr-has: no run 7 (see 'supernode runs list')

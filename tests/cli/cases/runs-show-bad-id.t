# a run id is a positive whole number
args: runs show seven --db $TMP/r.db
covers: store render
exit: 2
stderr-has: runs show:

# a mistyped --db for a command that reads: exit 2, and no database made
args: runs list --db $TMP/typo.db
covers: store render
exit: 2
stderr-has: typo.db: no results database there
no-file: $TMP/typo.db

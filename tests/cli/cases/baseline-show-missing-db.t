# baseline show reads: a missing --db is not created
args: baseline show accept --db $TMP/typo.db
covers: diagnose store render
exit: 2
stderr-has: typo.db: no results database there
no-file: $TMP/typo.db

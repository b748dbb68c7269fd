# a size of 0 is not "the default": refused before the job starts
args: bench coll -b 0
covers: spec net workload study bench render
exit: 2
stderr-has: -b: a size of 0 bytes

# an empty list would mean every collective
args: bench coll --ops ""
covers: spec net workload study bench render
exit: 2
stderr-has: '--ops' has an empty value

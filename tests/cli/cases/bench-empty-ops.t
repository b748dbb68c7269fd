# an empty list would mean every collective
args: bench coll --ops ""
exit: 2
stderr-has: '--ops' has an empty value

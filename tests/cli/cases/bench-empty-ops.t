# an empty list would mean every collective
args: bench coll --ops ""
covers: spec model bench report
exit: 2
stderr-has: '--ops' has an empty value

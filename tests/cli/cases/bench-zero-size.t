# a size of 0 is not "the default": refused before the job starts
args: bench coll -b 0
covers: spec model bench report
exit: 2
stderr-has: -b: a size of 0 bytes

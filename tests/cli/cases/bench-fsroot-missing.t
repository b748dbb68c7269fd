# a root that is not there is bad input, as doctor has it
args: bench memory --fsroot /nonexistent-root
covers: spec net workload study bench render
exit: 2
stderr-has: --fsroot /nonexistent-root: cannot use as root

# bench rejects bad options before it runs anything: memory --fsroot README.md
args: bench memory --fsroot README.md
covers: spec net workload study bench render
exit: 2
stderr-has: --fsroot README.md: cannot use as root: not a directory
stdout-lacks: rank

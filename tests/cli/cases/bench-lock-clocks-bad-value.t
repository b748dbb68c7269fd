# --lock-clocks takes SM:MEM in MHz; anything else is refused before the run
args: bench compute --lock-clocks=19x0:2619
covers: spec net workload study bench render
exit: 2
stderr-has: --lock-clocks: '19x0:2619' is not SM:MEM in MHz

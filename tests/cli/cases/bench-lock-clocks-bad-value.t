# --lock-clocks takes SM:MEM in MHz; anything else is refused before the run
args: bench compute --lock-clocks=19x0:2619
covers: spec model bench report
exit: 2
stderr-has: --lock-clocks: '19x0:2619' is not SM:MEM in MHz

# a mistyped option gets the nearest option the command's help names, as a mistyped command and value already do (issue 34)
args: plan --fromat json
covers: spec topo plan render
exit: 2
stderr-has: plan: unknown option '--fromat' (did you mean '--format'?)

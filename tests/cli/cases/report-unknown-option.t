# an unknown option names itself and where help is
args: report --colour blue -o $TMP/r.html
covers: spec topo net workload study bench store html render
exit: 2
stderr-has: report: unknown option '--colour' (see 'supernode help report')

# an unknown option names itself and where help is
args: report --colour blue -o $TMP/r.html
covers: spec topo model bench store report
exit: 2
stderr-has: report: unknown option '--colour' (see 'supernode help report')

# the text plan of the default reads as a document: sections, units, totals
args: plan
covers: spec topo plan render
exit: 0
stdout-has: Plan: seed-64 (<default>)
stdout-has: 4 supernodes x 64 H200-SXM-141GB = 256 accelerators in 32 servers and 8 racks
stdout-has:   total (scale-up + scale-out)            640    2,560
stdout-has:   convergence ratio              2 : 1
stdout-has:   provisioned
stdout-has:   coolant flow
stdout-has: Storage (checkpoints)
stderr-empty:

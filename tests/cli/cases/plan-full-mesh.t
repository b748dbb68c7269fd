# eight MI300X in a full mesh: 8 x 7 / 2 = 28 board links per server, 4 x 4
# pairs across a cut: 16 x 64 GB/s = 1.02 TB/s
args: plan examples/mi300x-16-servers.yaml
covers: spec topo plan render
exit: 0
stdout-has:   scale-up                                 28      448
stdout-has:   board              448       -        -  traces and backplanes, no cable
stdout-has:   scale-up bisection         1.02 TB/s  per supernode
stdout-has:   leaf        8      8         0  5.98 kW
stderr-empty:

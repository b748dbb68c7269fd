# scale-out media chosen by reach among the cables whose reach is a
# vendor's figure at that speed: passive copper to 2 m (MCP4Y10), active
# copper to 5 m (LinkX ACC), optics with transceivers beyond; the 400G
# AOC's 30 m is an assumption, so it is never chosen by reach (the links
# past 5 m take MMA4Z00-NS400 at the ConnectX-7, MMA4Z00-NS in the
# QM9700's twin-port cages)
args: plan tests/fixtures/specs/good/hgx-b200-32-rail400.yaml
covers: catalog spec topo plan render
exit: 0
stdout-has:   copper             280   155 m   1.99 m
stdout-has:   acc                 11  33.0 m   4.98 m
stdout-has:   mmf                221  1668 m   10.1 m
stdout-has:     MMA4Z00-NS400    221                   for 221 link ends
stdout-has:     MMA4Z00-NS       112                   for 221 link ends
stdout-lacks:   aoc
stdout-lacks: WARN cabling
stderr-empty:

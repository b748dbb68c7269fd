# the cables a spec names are the cables of every link of their class: all
# 10,368 NVLink links copper, all 1,152 network links the 800G multimode
# optics, together every link of the plan; every run within the copper's
# 1 m. Modules as the cages take them: one 800G module at each of the 576
# ConnectX-8 ports, one 1.6T twin-port module for two links in the
# Quantum-X800 switches' cages (1,728 ends: 864)
args: plan tests/fixtures/specs/good/nvl72-immersion.yaml
covers: spec topo plan render
exit: 0
stdout-has:   copper                        10,368
stdout-has:   mmf                            1,152
stdout-has:   transceivers                   1,440
stdout-has:     1.6T twin-port OSFP 2x800G     864                   for 1,728 link ends
stdout-lacks: WARN cabling
stderr-empty:

# GB200 NVL72: 18 switch chips in 9 trays, 1,296 GPU-to-switch links, all
# copper in one rack (hardware-catalog.md 2.4; tolerances in tests/plan)
args: plan examples/gb200-nvl72.yaml
covers: spec topo plan render
exit: 0
stdout-has: 1 supernode x 72 GB200 (per B200 GPU in NVL72) = 72 accelerators in 18 servers and 1 rack
stdout-has:   scale-up switch     18      9         0  7.20 kW
stdout-has:   scale-up                              1,296    1,296
stdout-has:   copper           1,296
stdout-has:   scale-up aggregate         64.8 TB/s  all accelerators; 130 TB/s counting both directions
stdout-lacks: WARN cabling
stderr-empty:

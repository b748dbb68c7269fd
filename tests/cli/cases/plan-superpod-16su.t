# DGX SuperPOD H100, 16 SU over three tiers (RA-11333-001 Table 3): 128
# leaf, 128 spine, 64 core; 4,096 cables at each level
args: plan examples/dgx-h100-superpod-16su.yaml
covers: spec topo plan render
exit: 0
stdout-has:   leaf               128    128         0          95.6 kW
stdout-has:   spine              128    128         0          95.6 kW
stdout-has:   core                64     64         0          47.8 kW
stdout-has:     NIC uplinks                             8    4,096
stdout-has:     switch to switch                        -    8,192
stderr-empty:

# DGX SuperPOD H100, one SU (RA-11333-001 Table 4): 8 leaf, 4 spine, 248
# DGX-to-leaf and 256 leaf-to-spine cables
args: plan examples/dgx-h100-superpod-su.yaml
covers: spec topo plan render
exit: 0
stdout-has:   leaf                 8      8         0          5.98 kW
stdout-has:   spine                4      4         0          2.99 kW
stdout-has:     NIC uplinks                             8      248
stdout-has:     switch to switch                        -      256
stdout-has:   convergence ratio              9 : 1
stderr-empty:

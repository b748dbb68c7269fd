# 4 servers x 8 NICs at 400G: 32 ports on one 64-port switch, no spine
# (it planned 8 leaves, 4 spines and 256 leaf-to-spine cables)
args: plan tests/fixtures/plan/hgx-h200-x4-rail.yaml
covers: spec topo plan render
exit: 0
stdout-has:   leaf                 1      1         0
stdout-has:     switch to switch                        -        0
stdout-lacks: spine

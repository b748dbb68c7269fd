# a scale-up fabric whose spec names no medium takes, for each link
# between chassis, the scale-up cable that reaches it: the 5,376 UB
# L1-L2 links of a 384-NPU supernode run up to 10.1 m, past any copper,
# so they are optical (400G LPO, two links a module), not copper
args: plan tests/fixtures/specs/good/ub-384-by-reach.yaml
covers: catalog spec topo plan render
exit: 0
stdout-has:   smf              5,376  35.0 km   10.1 m
stdout-has:     400G LPO       5,376                    for 10,752 link ends
stdout-lacks:   copper
stdout-lacks: WARN cabling
stderr-empty:

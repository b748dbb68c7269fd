# the cables a spec names are the cables of every link of their class: all
# 10,368 NVLink links copper, all 1,152 network links the 800G multimode
# optics (two transceivers each), together every link of the plan; every
# run within the copper's 1 m
args: plan tests/fixtures/specs/good/nvl72-immersion.yaml
covers: spec topo plan render
exit: 0
stdout-has:   copper          10,368
stdout-has:   mmf              1,152
stdout-has:   transceivers     2,304
stdout-lacks: WARN cabling
stderr-empty:

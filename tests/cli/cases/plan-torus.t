# a 4x4x4 torus: 64 x 6 / 2 = 192 links; a cut across one dimension cuts
# 16 rings twice: 32 x 100 GB/s = 3.2 TB/s; no published TPU power: an
# estimate [E]
args: plan examples/tpu-v5p-cube.yaml
covers: spec topo plan render
exit: 0
stdout-has: scale-up: torus 4 x 4 x 4, 6 x 100 GB/s links per accelerator
stdout-has:   scale-up                                192      192
stdout-has:   scale-up bisection         3.20 TB/s  per supernode
stdout-has: Switches: none in this design
stdout-has:   accelerators (TDP)    28.8 kW  64 x 450 W
stdout-lacks: WARN power
stderr-empty:

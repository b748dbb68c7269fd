# `plan` without SPEC plans the built-in seed design: 4 x 64 accelerators,
# 8 scale-up links and 2 uplinks each: 512 + 128 = 640 links per supernode,
# 2,048 + 512 = 2,560 for the four (design notes; exact)
args: plan --format json
covers: spec topo plan render
exit: 0
stdout-has: "schema": "supernode.plan/1",
stdout-has:     "accelerators": 256,
stdout-has:       "scale_up": 2048,
stdout-has:       "scale_out": 512,
stdout-has:       "total": 2560,
stdout-has:       "scale_out_switch": 0
stdout-has:       "scale_up": 512,
stdout-has:       "scale_out_nic": 128,
stdout-has:       "total": 640
stdout-has:     "switch_chips": 32,
stdout-has:       "steady_w":
stdout-has:       "coolant_lpm":
stdout-has:       "checkpoint_bytes":
stdout-has:       "required_write_Bps":
stderr-empty:

# `spec check` without a file validates the built-in seed-64
args: spec check
covers: spec render
exit: 0
stdout-has: <default>: ok: seed-64: 4 x 64 h200-sxm-141gb = 256 accelerators in 32 nodes
stdout-has: switched scale-up, 8 links x 25.0 GB/s per accelerator
stdout-has: external scale-out, 16 NIC ports x 50.0 GB/s per node
stderr-empty:

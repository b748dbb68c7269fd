# sweeping the scale-up domain at a fixed job size: each design gets the
# supernodes the 64-GPU job needs; one value is marked the sweet spot
args: sweep --set supernode.accelerators=8,16,32 --model llama3-8b --gpus 64 --gbs 256
covers: spec net workload study render
exit: 0
stdout-has: supernode.accelerators  accels  job  domain
stdout-has: * the sweet spot: most tokens/s per accelerator of the design after goodput
stdout-has: goodput assumes: every failure stops the job; a failed supernode is out of the job until repaired (24 h), 0 spare supernodes
stderr-empty:

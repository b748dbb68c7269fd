# a 256-GPU job on 72-GPU domains needs four of them: the row counts the
# design's 288 accelerators (its links and power are for 288) beside the
# job's 256, and the effective throughput is per accelerator of the design
args: sweep --set supernode.tiers=2 --set supernode.accelerators=64,72 --model llama3-70b
covers: spec net workload study render
exit: 0
stdout-has: 72                         288  256      72
stdout-has: per GPU: tokens/s per accelerator of the job; effective/accel: x goodput, per accelerator of the design

# a serving sweep with MTP drafts needs their acceptance rate
args: sweep examples/cloudmatrix-384.yaml --set supernode.accelerators=8,16 --model deepseek-r1 --infer --mtp 2
covers: spec net workload study render
exit: 2
stderr-has: 2 drafted tokens need their acceptance rate

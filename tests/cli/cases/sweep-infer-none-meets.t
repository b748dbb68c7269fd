# no value meets the limit: every row says how near it came; exit 1 (a finding)
args: sweep examples/cloudmatrix-384.yaml --set supernode.accelerators=16,32 --model deepseek-r1 --infer --tpot 1ms
covers: spec net workload study render
exit: 1
stdout-has: supernode.accelerators=16: no layout meets the limits: TPOT
stdout-has: (limit 1.00 ms)
stdout-lacks: *  

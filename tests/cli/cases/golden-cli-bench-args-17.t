# bench rejects bad options before it runs anything: gemm --gemm-size 0
args: bench gemm --gemm-size 0
covers: spec net workload study bench render
exit: 2
stderr-has: unknown test 'gemm' (expected compute, memory, h2d, d2h, pairs, aggregate, coll or latency)
stdout-lacks: rank

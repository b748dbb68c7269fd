# bench rejects bad options before it runs anything: coll --dtypes a,b
args: bench coll --dtypes a,b
covers: spec net workload study bench render
exit: 2
stderr-has: --dtypes: unknown data type 'a' (expected fp64, fp32, tf32, bf16, fp16, fp8 or int32)
stdout-lacks: rank

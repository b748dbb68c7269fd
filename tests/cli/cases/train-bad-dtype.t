# a dtype the model does not know is refused with the choices
args: sim train --model llama3-8b --dtype fp9
covers: spec net workload study render
exit: 2
stderr-has: --dtype: unknown value 'fp9' (expected bf16, fp16, fp8, fp4 or int8)

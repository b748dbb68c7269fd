# INT8 (W8A8) is a serving precision: training refuses it with the choices
args: sim train --model llama3-8b --dtype INT8
covers: spec net workload study render
exit: 2
stderr-has: int8 is a serving precision (W8A8); training takes bf16, fp16, fp8 or fp4

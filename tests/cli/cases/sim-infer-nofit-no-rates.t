# a layout that does not fit prints no times or rates beside DOES NOT FIT
args: sim infer examples/gb200-nvl72.yaml --model deepseek-v3 --gpus 1
covers: spec net workload study render
exit: 1
stdout-has: DOES NOT FIT: no room for one sequence
stdout-lacks: tokens/s
stdout-lacks: TPOT

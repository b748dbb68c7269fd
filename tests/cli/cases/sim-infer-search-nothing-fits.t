# a search where no layout fits (DeepSeek-R1 in BF16 on 8 NPUs): the
# empty front and the reason, exit 1, no crash on the empty set
args: sim infer examples/cloudmatrix-384.yaml --model deepseek-r1 --gpus 8 --search --precision bf16
covers: spec net workload study render
exit: 1
stdout-has: no layout meets the limits

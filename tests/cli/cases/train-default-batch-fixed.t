# the default global batch is about 4M tokens whatever the job's size: on
# 4,096 GPUs it stays 512 x 8192 (it was 4,096 x 8192, 33M tokens)
args: sim train examples/dgx-h100-superpod-16su.yaml --model llama3-70b --gpus 4096 --search --top 1
covers: spec net workload study render
exit: 0
stdout-has: global batch 512 x 8192 tokens, bf16; MFU against the dense bf16 peak, 989.4 TFLOP/s

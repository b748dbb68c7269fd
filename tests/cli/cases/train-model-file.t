# a custom model from YAML
args: sim train tests/fixtures/train/a100-64.yaml --model tests/fixtures/train/llama-like.yaml --tp 2 --gbs 256
covers: spec net workload study render
exit: 0
stdout-has: my-8b on 64 x a100-sxm4-80gb
stderr-empty:

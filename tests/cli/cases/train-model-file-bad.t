# a model file with an error: located, exit 2
args: sim train tests/fixtures/train/a100-64.yaml --model tests/fixtures/train/bad-model.yaml
covers: spec net workload study render
exit: 2
stderr-has: tests/fixtures/train/bad-model.yaml:3:9: hidden is not a multiple of the heads (4096, 30)

# sim infer --kernels with a bad row: located at file:line:col, exit 2, nothing printed
args: sim infer examples/dgx-h100-superpod-su.yaml --model qwen3-30b-a3b --gpus 1 --kernels tests/fixtures/kernels/bad-dim.csv
covers: spec net workload study render
exit: 2
stderr-has: --kernels: tests/fixtures/kernels/bad-dim.csv:2:21: '-1' is not a number in (0, 1e+09]
stdout-lacks: TTFT

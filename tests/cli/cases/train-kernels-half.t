# --kernels with half the rate of train-kernels-file: the forward's GEMM share doubles (38.76 - 71.39 s: 32.6 s more, the GEMMs' 32.6 s at 300 TFLOP/s again)
args: sim train examples/dgx-h100-superpod-su.yaml --model llama3-8b --gpus 8 --tp 4 --pp 2 --kernels tests/fixtures/kernels/h100-150.csv
covers: spec net workload study render
exit: 0
stdout-has:   forward     71.3910   33.1%
stdout-has:   step       215.7144  100.0%
stderr-empty:

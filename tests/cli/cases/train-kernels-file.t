# --kernels FILE: a measured kernel table (one row: every GEMM at 300 TFLOP/s, times the sustained-load factor) in place of the shipped one; the step follows it (tests/fixtures/kernels/h100-150.csv, half the rate, doubles the GEMM time: train-kernels-half)
args: sim train examples/dgx-h100-superpod-su.yaml --model llama3-8b --gpus 8 --tp 4 --pp 2 --kernels tests/fixtures/kernels/h100-300.csv
covers: spec net workload study render
exit: 0
stdout-has:   forward     38.7551   32.9%
stdout-has:   step       117.6405  100.0%
stderr-empty:

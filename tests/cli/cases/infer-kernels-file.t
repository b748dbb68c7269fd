# sim infer --kernels FILE: a measured FP8 table (every GEMM and grouped GEMM at 100 TFLOP/s) in place of the shipped one; Qwen3-30B-A3B's 8,192-token prompt on one H100 (infer-kernels-half: the grouped rate halved)
args: sim infer examples/dgx-h100-superpod-su.yaml --model qwen3-30b-a3b --gpus 1 --precision fp8 --kv-precision fp8 --isl 8192 --osl 16 --batch 1 --kernels tests/fixtures/kernels/h100-fp8-100.csv
covers: spec net workload study render
exit: 0
stdout-has:   TTFT (idle replica)    591.1 ms, one prompt alone
stdout-has:   GEMM rates             extrapolated
stderr-empty:

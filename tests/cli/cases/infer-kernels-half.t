# --kernels with the grouped rate halved (infer-kernels-file): TTFT 591.1 -> 936.3 ms, 345.2 ms more, the experts' time at 100 TFLOP/s again (48 layers x 128 experts x 2 x 512 rows x 3 x 768 x 2,048 FLOPs / (100 TFLOP/s x 0.86))
args: sim infer examples/dgx-h100-superpod-su.yaml --model qwen3-30b-a3b --gpus 1 --precision fp8 --kv-precision fp8 --isl 8192 --osl 16 --batch 1 --kernels tests/fixtures/kernels/h100-fp8-grouped-50.csv
covers: spec net workload study render
exit: 0
stdout-has:   TTFT (idle replica)    936.3 ms, one prompt alone
stderr-empty:

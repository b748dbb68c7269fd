# sweep --infer --kernels FILE: the serving search at every value rates its GEMMs by the loaded table (grouped GEMMs at 50 TFLOP/s: the best layout of Qwen3-30B-A3B on an 8-GPU domain falls from 124.2 to 16.7 output tokens/s per GPU at 8,192-token prompts)
args: sweep examples/dgx-h100-superpod-su.yaml --set supernode.accelerators=8 --model qwen3-30b-a3b --infer --precision fp8 --kv-precision fp8 --isl 8192 --osl 16 --kernels tests/fixtures/kernels/h100-fp8-grouped-50.csv
covers: spec net workload study render
exit: 0
stdout-has: 936.7   208.09         4.8       16.7
stderr-empty:

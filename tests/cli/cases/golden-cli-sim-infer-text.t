# sim infer's report of one layout: Llama 3 70B FP8 on one HGX H100, TP 8, whole
args: sim infer examples/dgx-h100-superpod-su.yaml --model llama3-70b --gpus 8 --tp 8 --precision fp8 --kv-precision fp8
covers: spec net workload study render
exit: 0
stdout: tests/cli/expected/golden-cli-sim-infer-text.out

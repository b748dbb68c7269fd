# trtllm-bench's CUDA-graph padding and token budget: Llama 3.1 405B FP8
# on 8 H200, 1000/1000; the batch of 1360 between the 1024 and 2048 graphs
# runs padded in decode-only steps, and the output rate drops
args: sim infer examples/dgx-h100-superpod-su.yaml --set accelerator=h200-sxm-141gb --model llama3-405b --gpus 8 --tp 8 --precision fp8 --kv-precision fp8 --isl 1000 --osl 1000 --cuda-graphs trtllm-bench --max-tokens trtllm-bench
covers: spec net workload study render
exit: 0
stdout-has: largest batch

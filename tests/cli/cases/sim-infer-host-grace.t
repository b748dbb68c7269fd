# the host CPU given: 2,048 requests a step on Grace bound the step (45 ms per 1,536 requests), plus a
# quarter of the steps carrying a prompt that launch 292 kernels eagerly at 37.08 us: 60 + 2.707 ms
args: sim infer examples/gb200-nvl72.yaml --model llama3-8b --gpus 1 --precision fp8 --kv-precision fp8 --batch 2048 --isl 64 --osl 64 --host-cpu grace
exit: 0
stdout-has: host step              62.707 ms

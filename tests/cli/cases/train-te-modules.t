# TransformerEngine's module work on the host (software te_modules, on in the Megatron-Core profiles): the GB200 guide's DeepSeek-V3 layout on the baseline stack waits for its host 12.5% of the step
args: sim train examples/gb200-nvl72.yaml --set supernodes=4 --model deepseek-v3 --gpus 256 --tp 1 --pp 8 --vpp 4 --ep 32 --dtype fp8 --recompute selective --software megatron-core-baseline
exit: 0
stdout-has: software: megatron-core-baseline (host CPU grace)
stdout-has:   host        0.4775   12.5%
stdout-has:   step        3.8190  100.0%

# software te_modules: false in the spec: the same layout and stack with one launch a Linear, the host 5.3% of the step
setup: { cat examples/gb200-nvl72.yaml; printf 'software:\n  profile: megatron-core-baseline\n  te_modules: false\n'; } > $TMP/s.yaml
args: sim train $TMP/s.yaml --set supernodes=4 --model deepseek-v3 --gpus 256 --tp 1 --pp 8 --vpp 4 --ep 32 --dtype fp8 --recompute selective
exit: 0
stdout-has: software: megatron-core-baseline (host CPU grace)
stdout-has:   host        0.1844    5.3%
stdout-has:   step        3.5115  100.0%

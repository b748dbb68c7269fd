# a profile given: the figure is that stack's, no assumption and no plain figure beside it; the spec's section gives the same
setup: printf 'accelerator: gb200-nvl72\nsupernode:\n  accelerators: 72\nsoftware:\n  profile: plain\n' > $TMP/s.yaml
args: sim train $TMP/s.yaml --model qwen3-30b-a3b --gpus 8 --ep 8 --dtype fp8
covers: spec net workload study render
exit: 0
stdout-has: software: plain (host CPU grace)
stdout-lacks: assumed
stdout-lacks: on the plain eager stack
stderr-empty:

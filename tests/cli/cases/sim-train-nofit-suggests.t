# a layout that does not fit on the 288 accelerators given says what
# would: the same layout with full recompute or ZeRO 2, other layouts on
# these accelerators (--search), not a smaller count than the user has
args: sim train examples/dgx-h100-superpod-4su.yaml --model llama3-70b --gpus 288 --tp 4 --pp 2 --zero 1
covers: spec workload render
exit: 1
stdout-has: this layout fits with --recompute full (every layer recomputed from its input)
stdout-has: this layout fits with --zero 2 (state sharded across its data-parallel ranks)
stdout-has: other layouts fit on these 288 accelerators: --search ranks them
stdout-lacks: the smallest accelerator count

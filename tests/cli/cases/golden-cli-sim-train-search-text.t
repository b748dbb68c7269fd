# sim train --search --explain's text (the search's seconds vary, so the
# lines around them are pinned one by one)
args: sim train tests/fixtures/train/a100-64.yaml --model gpt3-175b --gbs 64 --search --top 5 --explain 2
exit: 0
stdout-has: GPT-3 175B on 64 x a100-sxm4-80gb (a100-64, 8 per scale-up domain)
stdout-has: global batch 64 x 2048 tokens, bf16; MFU against the dense bf16 peak, 312.0 TFLOP/s
stdout-has: searched 1818 layouts that pass the rules, 539 fit in memory, in
stdout-has: #  tp  pp  dp  cp  ep  vpp  mbs  recompute  zero  step s  tokens/s    MFU   GiB  limited by
stdout-has: 4   4   8   2   1   1    6    1       none  2     10.442     12553  67.7%  74.8  compute
stdout-has: 5   8   8   1   1   1    3    1       none  0     10.461     12529  67.5%  60.8  compute
stdout-has: layout #2: tp 8  pp 8  dp 1  cp 1  ep 1  vpp 4  mbs 1  gbs 64  seq 2048  recompute none  zero 0  sp on  dtype bf16
stdout-has:   fits: 60.16 of 80.00 GiB HBM (19.84 GiB free)
stdout-has:   bubble      0.2654    2.6%
stdout-has:   MFU                    68.1% of the bf16 peak, 312.0 TFLOP/s (model FLOPs: 72-coefficient formula per GEMM, no recompute)
stdout-has: against #1 (10.284 s), where the 0.088 s go:
stdout-has:   bubble     +0.0885 s
stderr-empty:

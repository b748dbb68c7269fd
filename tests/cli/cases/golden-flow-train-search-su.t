# sim train --search on a rail-optimised fat tree
# every line of the text but the search's own run time, which varies
args: sim train examples/dgx-h100-superpod-su.yaml --model gpt3-175b --gbs 256 --search --top 8 --explain 2
covers: spec net workload study render
exit: 0
stdout-has: GPT-3 175B on 248 x h100-sxm5-80gb (dgx-h100-superpod-1su, 8 per scale-up domain)
stdout-has: global batch 256 x 2048 tokens, bf16; MFU against the dense bf16 peak, 989.4 TFLOP/s
stdout-has: searched 170 layouts that pass the rules, 87 fit in memory, in
stdout-has: #  tp  pp  dp  cp  ep  vpp  mbs  recompute  zero  step s  tokens/s    MFU   GiB  limited by
stdout-has: 1   8  31   1   1   1    1    2       none  0      6.540     80169  35.2%  42.1  bubble 15%
stdout-has: 2   8  31   1   1   1    1    1       none  0      6.845     76599  33.6%  30.4  compute
stdout-has: 3   4  62   1   1   1    1    1       none  0      7.235     72465  31.8%  43.4  bubble 15%
stdout-has: 4   4  62   1   1   1    1    2       none  0      7.254     72280  31.7%  66.7  bubble 27%
stdout-has: 5   4  31   2   1   1    1    1       none  1      7.278     72038  31.6%  47.4  bubble 15%
stdout-has: 6   4  31   2   1   1    1    1       none  0      7.291     71910  31.5%  58.6  bubble 15%
stdout-has: 7   4  31   2   1   1    1    2       none  1      7.303     71794  31.5%  70.7  bubble 26%
stdout-has: 8   4  31   2   1   1    1    2       none  2      7.337     71462  31.4%  67.3  bubble 26%
stdout-has: layout #2: tp 8  pp 31  dp 1  cp 1  ep 1  vpp 1  mbs 1  gbs 256  seq 2048  recompute none  zero 0  sp on  dtype bf16
stdout-has: memory per accelerator (pipeline stage 0)
stdout-has:                  GiB
stdout-has:   weights       1.88
stdout-has:   gradients     3.76
stdout-has:   optimizer    11.29
stdout-has:   activations  11.64
stdout-has:   logits        0.00
stdout-has:   buffers       1.86
stdout-has:   total        30.43
stdout-has:   fits: 30.43 of 79.65 GiB HBM (49.22 GiB free)
stdout-has: step time (256 micro-batches per pipeline)
stdout-has:              seconds   share
stdout-has:   forward     2.0234   29.6%
stdout-has:   backward    4.0874   59.7%
stdout-has:   recompute   0.0000    0.0%
stdout-has:   tp          0.0618    0.9%
stdout-has:   cp          0.0000    0.0%
stdout-has:   ep          0.0000    0.0%
stdout-has:   pp          0.0870    1.3%
stdout-has:   bubble      0.5656    8.3%
stdout-has:   dp          0.0065    0.1%
stdout-has:   optimizer   0.0128    0.2%
stdout-has:   step        6.8446  100.0%
stdout-has: throughput
stdout-has:   tokens/s               76599 (308.9 per accelerator)
stdout-has:   model TFLOP/s per GPU  332.5
stdout-has:   MFU                    33.6% of the bf16 peak, 989.4 TFLOP/s (model FLOPs: 72-coefficient formula per GEMM, no recompute)
stdout-has:   HFU                    33.6% (with recompute: 96-coefficient for full)
stdout-has:   limited by             compute
stdout-has:   GEMM rates             extrapolated (a shape or type outside the measured kernel tables)
stdout-has: against #1 (6.540 s), where the 0.305 s go:
stdout-has:   forward    +0.2440 s
stdout-has:   backward   +0.4874 s
stdout-has:   tp         +0.0066 s
stdout-has:   bubble     -0.4311 s
stderr-empty:

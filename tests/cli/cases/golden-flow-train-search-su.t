# sim train --search on a rail-optimised fat tree
# every line of the text but the search's own run time, which varies
args: sim train examples/dgx-h100-superpod-su.yaml --model gpt3-175b --gbs 256 --search --top 8 --explain 2
exit: 0
stdout-has: GPT-3 175B on 248 x h100-sxm5-80gb (dgx-h100-superpod-1su, 8 per scale-up domain)
stdout-has: global batch 256 x 2048 tokens, bf16; MFU against the dense bf16 peak, 989.4 TFLOP/s
stdout-has: searched 170 layouts that pass the rules, 87 fit in memory, in
stdout-has: #  tp  pp  dp  cp  ep  vpp  mbs  recompute  zero  step s  tokens/s    MFU   GiB  limited by
stdout-has: 1   8  31   1   1   1    1    1       none  0      5.247     99931  43.8%  30.4  compute            330-420
stdout-has: 2   4  31   2   1   1    1    1       none  1      5.544     94561  41.5%  47.4  bubble
stdout-has: 3   4  62   1   1   1    1    1       none  0      5.556     94361  41.4%  43.4  bubble 15%
stdout-has: 4   4  31   2   1   1    1    1       none  0      5.557     94340  41.4%  58.6  bubble 15%
stdout-has: 5   8  31   1   1   1    1    2       none  0      5.594     93725  41.1%  42.1  bubble 15%
stdout-has: 6   4  31   2   1   1    1    1       none  2      5.613     93409  41.0%  44.0  compute            300-390
stdout-has: 7   4  31   2   1   1    1    2       none  1      6.366     82362  36.1%  70.7  bubble 26%
stdout-has: 8   2  62   2   1   1    1    1       none  1      6.377     82214  36.1%  72.5  bubble 27%
stdout-has: layout #2: tp 4  pp 31  dp 2  cp 1  ep 1  vpp 1  mbs 1  gbs 256  seq 2048  recompute none  zero 1  sp on  dtype bf16
stdout-has: memory per accelerator (pipeline stage 0)
stdout-has:                  GiB
stdout-has:   weights       3.72
stdout-has:   gradients     7.43
stdout-has:   optimizer    11.15
stdout-has:   activations  23.27
stdout-has:   logits        0.00
stdout-has:   buffers       1.86
stdout-has:   total        47.43
stdout-has:   fits: 47.43 of 79.65 GiB HBM (32.22 GiB free)
stdout-has: step time (128 micro-batches per pipeline)
stdout-has:              seconds   share
stdout-has:   forward     1.5315   27.6%
stdout-has:   backward    3.1043   56.0%
stdout-has:   recompute   0.0000    0.0%
stdout-has:   tp          0.0247    0.4%
stdout-has:   cp          0.0000    0.0%
stdout-has:   ep          0.0000    0.0%
stdout-has:   pp          0.0169    0.3%
stdout-has:   bubble      0.8403   15.2%
stdout-has:   dp          0.0141    0.3%
stdout-has:   optimizer   0.0127    0.2%
stdout-has:   step        5.5444  100.0%
stdout-has: throughput
stdout-has:   tokens/s               94561 (381.3 per accelerator)
stdout-has:   model TFLOP/s per GPU  410.4
stdout-has:   MFU                    41.5% of the bf16 peak, 989.4 TFLOP/s (model FLOPs: 72-coefficient formula per GEMM, no recompute)
stdout-has:   HFU                    41.5% (with recompute: 96-coefficient for full)
stdout-has:   limited by             bubble 15%
stdout-has:   GEMM rates             extrapolated (a shape or type outside the measured kernel tables)
stdout-has: against #1 (5.247 s), where the 0.298 s go:
stdout-has:   forward    -0.0201 s
stdout-has:   backward   -0.0396 s
stdout-has:   tp         -0.0664 s
stdout-has:   pp         +0.0078 s
stdout-has:   bubble     +0.4087 s
stderr-empty:

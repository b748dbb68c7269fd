# sim train --search on a rail-optimised fat tree
# every line of the text but the search's own run time, which varies
args: sim train examples/dgx-h100-superpod-su.yaml --model gpt3-175b --gbs 256 --search --top 8 --explain 2
exit: 0
stdout-has: GPT-3 175B on 248 x h100-sxm5-80gb (dgx-h100-superpod-1su, 8 per scale-up domain)
stdout-has: global batch 256 x 2048 tokens, bf16; MFU against the dense bf16 peak, 989.4 TFLOP/s
stdout-has: searched 170 layouts that pass the rules, 87 fit in memory, in
stdout-has: #  tp  pp  dp  cp  ep  vpp  mbs  recompute  zero  step s  tokens/s    MFU   GiB  limited by  tok/s/GPU band  gaps
stdout-has: 1   8  31   1   1   1    1    1       none  0      5.334     98301  43.1%  30.4  compute            320-410  T1
stdout-has: 2   4  62   1   1   1    1    1       none  0      5.585     93871  41.2%  43.4  bubble 15%         310-390  T1
stdout-has: 3   4  31   2   1   1    1    1       none  1      5.633     93066  40.8%  47.4  bubble 15%         300-390  T1
stdout-has: 4   4  31   2   1   1    1    1       none  0      5.647     92852  40.7%  58.6  bubble 15%         300-390  T1
stdout-has: 5   8  31   1   1   1    1    2       none  0      5.683     92256  40.5%  42.1  bubble 15%         300-390  T1
stdout-has: 6   4  31   2   1   1    1    1       none  2      5.702     91950  40.3%  44.0  bubble 15%         300-390  T1
stdout-has: 7   2  62   2   1   1    1    1       none  1      6.407     81828  35.9%  72.5  bubble 27%         270-340  T1
stdout-has: 8   4  62   1   1   1    1    2       none  0      6.413     81748  35.9%  66.7  bubble 27%         270-340  T1
stdout-has: layout #2: tp 4  pp 62  dp 1  cp 1  ep 1  vpp 1  mbs 1  gbs 256  seq 2048  recompute none  zero 0  sp on  dtype bf16
stdout-has: memory per accelerator (pipeline stage 0)
stdout-has:                  GiB
stdout-has:   weights       2.03
stdout-has:   gradients     4.06
stdout-has:   optimizer    12.17
stdout-has:   activations  23.27
stdout-has:   logits        0.00
stdout-has:   buffers       1.86
stdout-has:   total        43.38
stdout-has:   fits: 43.38 of 79.65 GiB HBM (36.26 GiB free)
stdout-has: step time (256 micro-batches per pipeline)
stdout-has:              seconds   share
stdout-has:   forward     1.5333   27.5%
stdout-has:   backward    3.1073   55.6%
stdout-has:   recompute   0.0000    0.0%
stdout-has:   tp          0.0247    0.4%
stdout-has:   cp          0.0000    0.0%
stdout-has:   ep          0.0000    0.0%
stdout-has:   pp          0.0290    0.5%
stdout-has:   bubble      0.8641   15.5%
stdout-has:   dp          0.0130    0.2%
stdout-has:   optimizer   0.0138    0.2%
stdout-has:   host        0.0000    0.0%
stdout-has:   step        5.5852  100.0%
stdout-has: throughput
stdout-has:   tokens/s               93871 (378.5 per accelerator)
stdout-has:   model TFLOP/s per GPU  407.4
stdout-has:   MFU                    41.2% of the bf16 peak, 989.4 TFLOP/s (model FLOPs: 72-coefficient formula per GEMM, no recompute)
stdout-has:   HFU                    41.2% (with recompute: 96-coefficient for full)
stdout-has:   limited by             bubble 15%
stdout-has:   GEMM rates             extrapolated (a shape or type outside the measured kernel tables)
stdout-has: against #1 (5.334 s), where the 0.252 s go:
stdout-has:   forward    -0.0183 s
stdout-has:   backward   -0.0365 s
stdout-has:   tp         -0.0664 s
stdout-has:   pp         -0.0580 s
stdout-has:   bubble     +0.4234 s
stdout-has:   dp         +0.0065 s
stderr-empty:

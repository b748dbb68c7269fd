# sim train --search on the a100 fixture
# every line of the text but the search's own run time, which varies
args: sim train tests/fixtures/train/a100-64.yaml --model gpt3-175b --gbs 64 --search --top 5 --explain 2
exit: 0
stdout-has: GPT-3 175B on 64 x a100-sxm4-80gb (a100-64, 8 per scale-up domain)
stdout-has: global batch 64 x 2048 tokens, bf16; MFU against the dense bf16 peak, 312.0 TFLOP/s
stdout-has: searched 1398 layouts that pass the rules, 282 fit in memory, in
stdout-has: #  tp  pp  dp  cp  ep  vpp  mbs  recompute  zero  step s  tokens/s    MFU   GiB  limited by
stdout-has: 1   8   8   1   1   1    6    2       none  0     12.405     10566  57.0%  69.8  compute
stdout-has: 2   8   8   1   1   1    4    2       none  0     12.616     10389  56.0%  71.1  compute
stdout-has: 3   8   4   2   1   1    8    2       none  2     12.648     10363  55.9%  73.5  compute
stdout-has: 4   8   4   2   1   1    6    2       none  2     12.728     10298  55.5%  74.0  compute
stdout-has: 5   8   8   1   1   1    3    2       none  0     12.827     10219  55.1%  72.5  compute
stdout-has: layout #2: tp 8  pp 8  dp 1  cp 1  ep 1  vpp 4  mbs 2  gbs 64  seq 2048  recompute none  zero 0  sp on  dtype bf16
stdout-has: memory per accelerator (pipeline stage 0)
stdout-has:                  GiB
stdout-has:   weights       5.26
stdout-has:   gradients    10.51
stdout-has:   optimizer    31.54
stdout-has:   activations  21.96
stdout-has:   logits        0.00
stdout-has:   buffers       1.86
stdout-has:   total        71.14
stdout-has:   fits: 71.14 of 80.00 GiB HBM (8.86 GiB free)
stdout-has: step time (32 micro-batches per pipeline)
stdout-has:              seconds   share
stdout-has:   forward     3.9366   31.2%
stdout-has:   backward    7.8808   62.5%
stdout-has:   recompute   0.0000    0.0%
stdout-has:   tp          0.0869    0.7%
stdout-has:   cp          0.0000    0.0%
stdout-has:   ep          0.0000    0.0%
stdout-has:   pp          0.0076    0.1%
stdout-has:   bubble      0.6324    5.0%
stdout-has:   dp          0.0130    0.1%
stdout-has:   optimizer   0.0589    0.5%
stdout-has:   step       12.6160  100.0%
stdout-has: throughput
stdout-has:   tokens/s               10389 (162.3 per accelerator)
stdout-has:   model TFLOP/s per GPU  174.7
stdout-has:   MFU                    56.0% of the bf16 peak, 312.0 TFLOP/s (model FLOPs: 72-coefficient formula per GEMM, no recompute)
stdout-has:   HFU                    56.0% (with recompute: 96-coefficient for full)
stdout-has:   limited by             compute
stdout-has:   GEMM rates             extrapolated (a shape or type outside the measured kernel tables)
stdout-has: against #1 (12.405 s), where the 0.211 s go:
stdout-has:   bubble     +0.2108 s
stderr-empty:

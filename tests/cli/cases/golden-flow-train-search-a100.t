# sim train --search on the a100 fixture
# every line of the text but the search's own run time, which varies
args: sim train tests/fixtures/train/a100-64.yaml --model gpt3-175b --gbs 64 --search --top 5 --explain 2
exit: 0
stderr-empty:
stdout-has: GPT-3 175B on 64 x a100-sxm4-80gb (a100-64, 8 per scale-up domain)
stdout-has: global batch 64 x 2048 tokens, bf16; MFU against the dense bf16 peak, 312.0 TFLOP/s
stdout-has: #  tp  pp  dp  cp  ep  vpp  mbs  recompute  zero  step s  tokens/s    MFU   GiB  limited by
stdout-has: 1   8   8   1   1   1    6    1       none  0     10.284     12745  68.7%  59.5  compute
stdout-has: 2   8   8   1   1   1    4    1       none  0     10.373     12636  68.1%  60.2  compute
stdout-has: 3   8   8   1   1   1    6    2       none  0     10.396     12608  68.0%  69.8  compute
stdout-has: 4   4   8   2   1   1    6    1       none  2     10.442     12553  67.7%  74.8  compute
stdout-has: 5   8   8   1   1   1    3    1       none  0     10.461     12529  67.5%  60.8  compute
stdout-has: layout #2: tp 8  pp 8  dp 1  cp 1  ep 1  vpp 4  mbs 1  gbs 64  seq 2048  recompute none  zero 0  sp on  dtype bf16
stdout-has: memory per accelerator (pipeline stage 0)
stdout-has:                  GiB
stdout-has:   weights       5.26
stdout-has:   gradients    10.51
stdout-has:   optimizer    31.54
stdout-has:   activations  10.98
stdout-has:   logits        0.00
stdout-has:   buffers       1.86
stdout-has:   total        60.16
stdout-has:   fits: 60.16 of 80.00 GiB HBM (19.84 GiB free)
stdout-has: step time (64 micro-batches per pipeline)
stdout-has:              seconds   share
stdout-has:   forward     3.3106   31.9%
stdout-has:   backward    6.6270   63.9%
stdout-has:   recompute   0.0000    0.0%
stdout-has:   tp          0.0939    0.9%
stdout-has:   cp          0.0000    0.0%
stdout-has:   ep          0.0000    0.0%
stdout-has:   pp          0.0039    0.0%
stdout-has:   bubble      0.2654    2.6%
stdout-has:   dp          0.0130    0.1%
stdout-has:   optimizer   0.0589    0.6%
stdout-has:   step       10.3726  100.0%
stdout-has: throughput
stdout-has:   tokens/s               12636 (197.4 per accelerator)
stdout-has:   model TFLOP/s per GPU  212.5
stdout-has:   MFU                    68.1% of the bf16 peak, 312.0 TFLOP/s (model FLOPs: 72-coefficient formula per GEMM, no recompute)
stdout-has:   HFU                    68.1% (with recompute: 96-coefficient for full)
stdout-has:   limited by             compute
stdout-has: against #1 (10.284 s), where the 0.088 s go:
stdout-has:   bubble     +0.0885 s
stdout-has: searched 1818 layouts that pass the rules, 539 fit in memory, in 

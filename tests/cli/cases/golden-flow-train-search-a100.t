# sim train --search on the a100 fixture
# every line of the text but the search's own run time, which varies
args: sim train tests/fixtures/train/a100-64.yaml --model gpt3-175b --gbs 64 --search --top 5 --explain 2
exit: 0
stdout-has: GPT-3 175B on 64 x a100-sxm4-80gb (a100-64, 8 per scale-up domain)
stdout-has: global batch 64 x 2048 tokens, bf16; MFU against the dense bf16 peak, 312.0 TFLOP/s
stdout-has: searched 1398 layouts that pass the rules, 282 fit in memory, in
stdout-has: #  tp  pp  dp  cp  ep  vpp  mbs  recompute  zero  step s  tokens/s    MFU   GiB  limited by
stdout-has: 1   8   8   1   1   1    6    2       none  0     11.302     11597  62.5%  69.8  compute
stdout-has: 2   4   8   2   1   1    6    1       none  2     11.347     11551  62.3%  75.1  compute
stdout-has: 3   8   8   1   1   1    4    2       none  0     11.494     11404  61.5%  71.1  compute
stdout-has: 4   4   8   2   1   1    4    1       none  2     11.533     11365  61.3%  76.5  compute
stdout-has: 5   4  16   1   1   1    6    1       none  0     11.611     11288  60.9%  71.3  compute
stdout-has: layout #2: tp 4  pp 8  dp 2  cp 1  ep 1  vpp 6  mbs 1  gbs 64  seq 2048  recompute none  zero 2  sp on  dtype bf16
stdout-has: memory per accelerator (pipeline stage 0)
stdout-has:                  GiB
stdout-has:   weights      10.47
stdout-has:   gradients    10.47
stdout-has:   optimizer    31.40
stdout-has:   activations  20.65
stdout-has:   logits        0.00
stdout-has:   buffers       2.16
stdout-has:   total        75.14
stdout-has:   fits: 75.14 of 80.00 GiB HBM (4.86 GiB free)
stdout-has: step time (32 micro-batches per pipeline)
stdout-has:              seconds   share
stdout-has:   forward     3.5819   31.6%
stdout-has:   backward    7.1713   63.2%
stdout-has:   recompute   0.0000    0.0%
stdout-has:   tp          0.0383    0.3%
stdout-has:   cp          0.0000    0.0%
stdout-has:   ep          0.0000    0.0%
stdout-has:   pp          0.0076    0.1%
stdout-has:   bubble      0.3817    3.4%
stdout-has:   dp          0.1075    0.9%
stdout-has:   optimizer   0.0586    0.5%
stdout-has:   step       11.3468  100.0%
stdout-has: throughput
stdout-has:   tokens/s               11551 (180.5 per accelerator)
stdout-has:   model TFLOP/s per GPU  194.3
stdout-has:   MFU                    62.3% of the bf16 peak, 312.0 TFLOP/s (model FLOPs: 72-coefficient formula per GEMM, no recompute)
stdout-has:   HFU                    62.3% (with recompute: 96-coefficient for full)
stdout-has:   limited by             compute
stdout-has:   GEMM rates             extrapolated (a shape or type outside the measured kernel tables)
stdout-has: against #1 (11.302 s), where the 0.044 s go:
stdout-has:   tp         -0.0486 s
stdout-has:   dp         +0.0945 s
stderr-empty:

# golden (issue 14, model/ refactor): the search on 4,096 GPUs; every line of stdout but the search's wall time
args: sim train examples/dgx-h100-superpod-16su.yaml --model llama3-70b --gpus 4096 --search --top 3 --explain 3
exit: 0
stdout-has: Llama 3 70B on 4096 x h100-sxm5-80gb (dgx-h100-superpod-16su, 8 per scale-up domain)
stdout-has: global batch 512 x 8192 tokens, bf16; MFU against the dense bf16 peak, 989.4 TFLOP/s
stdout-has: searched 482 layouts that pass the rules, 444 fit in memory, in
stdout-has: #  tp  pp   dp  cp  ep  vpp  mbs  recompute  zero  step s  tokens/s    MFU   GiB  limited by
stdout-has: 1   8   1  512   1   1    1    1       none  1      1.156   3628720  43.1%  73.0  communication 15%
stdout-has: 2   8   1  512   1   1    1    1       none  2      1.156   3628720  43.1%  44.1  communication 15%
stdout-has: 3   8   2  256   1   1    8    1       none  2      1.342   3125319  37.1%  33.2  communication 21%
stdout-has: layout #3: tp 8  pp 2  dp 256  cp 1  ep 1  vpp 8  mbs 1  gbs 512  seq 8192  recompute none  zero 2  sp on  dtype bf16
stdout-has: memory per accelerator (pipeline stage 0)
stdout-has:                  GiB
stdout-has:   weights       8.21
stdout-has:   gradients     0.06
stdout-has:   optimizer     0.19
stdout-has:   activations  20.96
stdout-has:   logits        0.00
stdout-has:   buffers       3.77
stdout-has:   total        33.20
stdout-has:   fits: 33.20 of 79.65 GiB HBM (46.45 GiB free)
stdout-has: step time (2 micro-batches per pipeline)
stdout-has:              seconds   share
stdout-has:   forward     0.3226   24.0%
stdout-has:   backward    0.6740   50.2%
stdout-has:   recompute   0.0000    0.0%
stdout-has:   tp          0.0169    1.3%
stdout-has:   cp          0.0000    0.0%
stdout-has:   ep          0.0000    0.0%
stdout-has:   pp          0.0007    0.1%
stdout-has:   bubble      0.0613    4.6%
stdout-has:   dp          0.2662   19.8%
stdout-has:   optimizer   0.0002    0.0%
stdout-has:   step        1.3420  100.0%
stdout-has: throughput
stdout-has:   tokens/s               3125319 (763.0 per accelerator)
stdout-has:   model TFLOP/s per GPU  367.3
stdout-has:   MFU                    37.1% of the bf16 peak, 989.4 TFLOP/s (model FLOPs: 72-coefficient formula per GEMM, no recompute)
stdout-has:   HFU                    37.1% (with recompute: 96-coefficient for full)
stdout-has:   limited by             communication 21%
stdout-has:   GEMM rates             extrapolated (a shape or type outside the measured kernel tables)
stdout-has: against #1 (1.156 s), where the 0.186 s go:
stdout-has:   forward    +0.0062 s
stdout-has:   backward   +0.0092 s
stdout-has:   tp         +0.0007 s
stdout-has:   pp         +0.0007 s
stdout-has:   bubble     +0.0613 s
stdout-has:   dp         +0.1080 s
stderr-empty:

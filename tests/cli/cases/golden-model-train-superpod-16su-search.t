# golden (issue 14, model/ refactor): the search on 4,096 GPUs; every line of stdout but the search's wall time
args: sim train examples/dgx-h100-superpod-16su.yaml --model llama3-70b --gpus 4096 --search --top 3 --explain 3
exit: 0
stdout-has: Llama 3 70B on 4096 x h100-sxm5-80gb (dgx-h100-superpod-16su, 8 per scale-up domain)
stdout-has: global batch 512 x 8192 tokens, bf16; MFU against the dense bf16 peak, 989.4 TFLOP/s
stdout-has: searched 482 layouts that pass the rules, 444 fit in memory, in
stdout-has: #  tp  pp   dp  cp  ep  vpp  mbs  recompute  zero  step s  tokens/s    MFU   GiB  limited by
stdout-has: 1   8   1  512   1   1    1    1       none  1      1.160   3614990  42.9%  73.0  communication 30%
stdout-has: 2   8   1  512   1   1    1    1       none  2      1.160   3614990  42.9%  44.1  communication 30%
stdout-has: 3   8   8   64   1   1    5    1       none  1      1.205   3480713  41.3%  29.7  compute                   690-880
stdout-has: layout #3: tp 8  pp 8  dp 64  cp 1  ep 1  vpp 5  mbs 1  gbs 512  seq 8192  recompute none  zero 1  sp on  dtype bf16
stdout-has: memory per accelerator (pipeline stage 0)
stdout-has:                  GiB
stdout-has:   weights       2.24
stdout-has:   gradients     4.47
stdout-has:   optimizer     0.21
stdout-has:   activations  20.96
stdout-has:   logits        0.00
stdout-has:   buffers       1.86
stdout-has:   total        29.74
stdout-has:   fits: 29.74 of 79.65 GiB HBM (49.91 GiB free)
stdout-has: step time (8 micro-batches per pipeline)
stdout-has:              seconds   share
stdout-has:   forward     0.2943   24.4%
stdout-has:   backward    0.5988   49.7%
stdout-has:   recompute   0.0000    0.0%
stdout-has:   tp          0.0342    2.8%
stdout-has:   cp          0.0000    0.0%
stdout-has:   ep          0.0000    0.0%
stdout-has:   pp          0.0052    0.4%
stdout-has:   bubble      0.1440   11.9%
stdout-has:   dp          0.1283   10.6%
stdout-has:   optimizer   0.0003    0.0%
stdout-has:   step        1.2050  100.0%
stdout-has: throughput
stdout-has:   tokens/s               3480713 (849.8 per accelerator)
stdout-has:   model TFLOP/s per GPU  409.1
stdout-has:   MFU                    41.3% of the bf16 peak, 989.4 TFLOP/s (model FLOPs: 72-coefficient formula per GEMM, no recompute)
stdout-has:   HFU                    41.3% (with recompute: 96-coefficient for full)
stdout-has:   limited by             compute
stdout-has:   GEMM rates             extrapolated (a shape or type outside the measured kernel tables)
stdout-has: against #1 (1.160 s), where the 0.045 s go:
stdout-has:   forward    +0.0361 s
stdout-has:   backward   +0.0506 s
stdout-has:   tp         +0.0049 s
stdout-has:   pp         +0.0052 s
stdout-has:   bubble     +0.1440 s
stdout-has:   dp         -0.1960 s
stderr-empty:

# golden (issue 14, model/ refactor): the search for a large MoE model; every line of stdout but the search's wall time
args: sim train examples/gb200-nvl72.yaml --model deepseek-v3 --search --top 4 --explain 2
exit: 0
stdout-has: DeepSeek-V3 (MoE, MLA) on 72 x gb200-nvl72 (gb200-nvl72, 72 per scale-up domain)
stdout-has: global batch 1152 x 4096 tokens, bf16; MFU against the dense bf16 peak, 2500.0 TFLOP/s
stdout-has: #  tp  pp  dp  cp  ep  vpp  mbs  recompute  zero  step s  tokens/s    MFU    GiB  limited by
stdout-has: 1   2   1  36   1   4    1    2       full  3     22.488    209823  28.9%  171.5  communication 16%
stdout-has: 2   1   1  72   1   8    1    1       full  3     22.712    207761  28.6%  172.1  communication 25%
stdout-has: 3   4   1  18   1   2    1    4       full  3     25.183    187374  25.8%  171.3  compute
stdout-has: 4   8   1   9   1   1    1    8       full  3     31.854    148134  20.4%  171.3  compute
stdout-has: layout #2: tp 1  pp 1  dp 72  cp 1  ep 8  vpp 1  mbs 1  gbs 1152  seq 4096  recompute full  zero 3  sp off  dtype bf16
stdout-has: memory per accelerator (pipeline stage 0)
stdout-has:                   GiB
stdout-has:   weights       17.39
stdout-has:   gradients     34.78
stdout-has:   optimizer    104.33
stdout-has:   activations    3.34
stdout-has:   logits         2.96
stdout-has:   buffers        9.28
stdout-has:   total        172.07
stdout-has:   fits: 172.07 of 173.23 GiB HBM (1.16 GiB free)
stdout-has: step time (16 micro-batches per pipeline)
stdout-has:              seconds   share
stdout-has:   forward     4.3420   19.1%
stdout-has:   backward    8.4451   37.2%
stdout-has:   recompute   4.2129   18.5%
stdout-has:   tp          0.0000    0.0%
stdout-has:   cp          0.0000    0.0%
stdout-has:   ep          3.3501   14.8%
stdout-has:   pp          0.0000    0.0%
stdout-has:   bubble      0.0000    0.0%
stdout-has:   dp          2.3541   10.4%
stdout-has:   optimizer   0.0074    0.0%
stdout-has:   step       22.7116  100.0%
stdout-has: throughput
stdout-has:   tokens/s               207761 (2885.6 per accelerator)
stdout-has:   model TFLOP/s per GPU  715.6
stdout-has:   MFU                    28.6% of the bf16 peak, 2500.0 TFLOP/s (model FLOPs: 72-coefficient formula per GEMM, no recompute)
stdout-has:   HFU                    37.9% (with recompute: 96-coefficient for full)
stdout-has:   limited by             communication 25%
stdout-has: against #1 (22.488 s), where the 0.223 s go:
stdout-has:   forward    -0.4555 s
stdout-has:   backward   -0.9009 s
stdout-has:   recompute  -0.4555 s
stdout-has:   tp         -0.0393 s
stdout-has:   ep         +0.5287 s
stdout-has:   dp         +1.5517 s
stdout-has: searched 3458 layouts that pass the rules, 20 fit in memory, in
stderr-empty:

# golden (issue 14, model/ refactor): the search for a large MoE model; every line of stdout but the search's wall time
args: sim train examples/gb200-nvl72.yaml --model deepseek-v3 --search --top 4 --explain 2
exit: 0
stdout-has: DeepSeek-V3 (MoE, MLA) on 72 x gb200-nvl72 (gb200-nvl72, 72 per scale-up domain)
stdout-has: software: megatron-core, assumed: none given (--software or the spec's software: section) (host CPU grace)
stdout-has:   on the plain eager stack: 124664 tokens/s (-23.6% against the first layout below)
stdout-has: global batch 1152 x 4096 tokens, bf16; MFU against the dense bf16 peak, 2500.0 TFLOP/s
stdout-has: searched 6894 layouts that pass the rules, 16 fit in memory, in
stdout-has: #  tp  pp  dp  cp  ep  etp  vpp  mbs  recompute  zero  step s  tokens/s    MFU    GiB  limited by
stdout-has: 1   8   1   9   1   1    8    1    4       full  3     28.931    163097  26.4%  170.2  communication 24%
stdout-has: 2   8   1   9   1   8    1    1    4       full  3     30.090    156816  25.4%  170.2  communication 31%
stdout-has: 3   4   1  18   1   2    4    1    2       full  3     31.906    147893  24.0%  170.2  communication 39%
stdout-has: 4   4   1  18   1   8    1    1    2       full  3     32.435    145478  23.6%  170.2  communication 40%
stdout-has: layout #2: tp 8  pp 1  dp 9  cp 1  ep 8  vpp 1  mbs 4  gbs 1152  seq 4096  recompute full  zero 3  sp on  dtype bf16  etp 1
stdout-has: memory per accelerator (pipeline stage 0)
stdout-has:                   GiB
stdout-has:   weights       17.68
stdout-has:   gradients     35.36
stdout-has:   optimizer    106.08
stdout-has:   activations    1.70
stdout-has:   logits         1.48
stdout-has:   buffers        7.87
stdout-has:   total        170.16
stdout-has:   fits: 170.16 of 173.23 GiB HBM (3.07 GiB free)
stdout-has: step time (32 micro-batches per pipeline)
stdout-has:              seconds   share
stdout-has:   forward     5.3299   17.7%
stdout-has:   backward   10.3426   34.4%
stdout-has:   recompute   5.0623   16.8%
stdout-has:   tp          0.2909    1.0%
stdout-has:   cp          0.0000    0.0%
stdout-has:   ep          1.2131    4.0%
stdout-has:   pp          0.0000    0.0%
stdout-has:   bubble      0.0000    0.0%
stdout-has:   dp          7.7320   25.7%
stdout-has:   optimizer   0.0504    0.2%
stdout-has:   host        0.0688    0.2%
stdout-has:   step       30.0900  100.0%
stdout-has: throughput
stdout-has:   tokens/s               156816 (2178.0 per accelerator)
stdout-has:   model TFLOP/s per GPU  635.6
stdout-has:   MFU                    25.4% of the bf16 peak, 2500.0 TFLOP/s (model FLOPs: 72-coefficient formula per GEMM, no recompute)
stdout-has:   HFU                    33.7% (with recompute: 96-coefficient for full)
stdout-has:   limited by             communication 31%
stdout-has: against #1 (28.931 s), where the 1.159 s go:
stdout-has:   forward    -0.2717 s
stdout-has:   backward   -0.5433 s
stdout-has:   recompute  -0.2717 s
stdout-has:   ep         +1.2131 s
stdout-has:   dp         +1.0323 s
stderr-empty:

# golden (issue 14, model/ refactor): the search for a large MoE model; every line of stdout but the search's wall time
args: sim train examples/gb200-nvl72.yaml --model deepseek-v3 --search --top 4 --explain 2
exit: 0
stdout-has: DeepSeek-V3 (MoE, MLA) on 72 x gb200-nvl72 (gb200-nvl72, 72 per scale-up domain)
stdout-has: global batch 1152 x 4096 tokens, bf16; MFU against the dense bf16 peak, 2500.0 TFLOP/s
stdout-has: searched 8484 layouts that pass the rules, 16 fit in memory, in
stdout-has: #  tp  pp  dp  cp  ep  etp  vpp  mbs  recompute  zero  step s  tokens/s    MFU    GiB  limited by
stdout-has: 1   8   1   9   1   1    8    1    4       full  3     55.809     84549  13.7%  170.2  communication 49%
stdout-has: 2   4   1  18   1   2    4    1    2       full  3     61.041     77303  12.5%  170.2  communication 58%
stdout-has: 3   4   1  18   1   8    1    1    2       full  3     63.837     73917  12.0%  170.2  communication 61%
stdout-has: 4   8   1   9   1   8    1    1    4       full  3     63.902     73841  12.0%  170.2  communication 58%
stdout-has: layout #2: tp 4  pp 1  dp 18  cp 1  ep 2  vpp 1  mbs 2  gbs 1152  seq 4096  recompute full  zero 3  sp on  dtype bf16  etp 4
stdout-has: memory per accelerator (pipeline stage 0)
stdout-has:                   GiB
stdout-has:   weights       17.67
stdout-has:   gradients     35.34
stdout-has:   optimizer    106.01
stdout-has:   activations    1.70
stdout-has:   logits         1.48
stdout-has:   buffers        8.00
stdout-has:   total        170.19
stdout-has:   fits: 170.19 of 173.23 GiB HBM (3.04 GiB free)
stdout-has: step time (32 micro-batches per pipeline)
stdout-has:              seconds   share
stdout-has:   forward     6.6174   10.8%
stdout-has:   backward   12.9537   21.2%
stdout-has:   recompute   6.2726   10.3%
stdout-has:   tp          0.1206    0.2%
stdout-has:   cp          0.0000    0.0%
stdout-has:   ep          5.2976    8.7%
stdout-has:   pp          0.0000    0.0%
stdout-has:   bubble      0.0000    0.0%
stdout-has:   dp         29.7283   48.7%
stdout-has:   optimizer   0.0504    0.1%
stdout-has:   step       61.0406  100.0%
stdout-has: throughput
stdout-has:   tokens/s               77303 (1073.6 per accelerator)
stdout-has:   model TFLOP/s per GPU  313.3
stdout-has:   MFU                    12.5% of the bf16 peak, 2500.0 TFLOP/s (model FLOPs: 72-coefficient formula per GEMM, no recompute)
stdout-has:   HFU                    16.6% (with recompute: 96-coefficient for full)
stdout-has:   limited by             communication 58%
stdout-has: against #1 (55.809 s), where the 5.232 s go:
stdout-has:   forward    -0.6378 s
stdout-has:   backward   -1.2194 s
stdout-has:   recompute  -0.6460 s
stdout-has:   ep         +5.2976 s
stdout-has:   dp         +2.5886 s
stderr-empty:

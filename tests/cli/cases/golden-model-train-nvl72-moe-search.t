# golden (issue 14, model/ refactor): the search for a large MoE model; every line of stdout but the search's wall time
args: sim train examples/gb200-nvl72.yaml --model deepseek-v3 --search --top 4 --explain 2
exit: 0
stderr-empty:
stdout-has: DeepSeek-V3 (MoE, MLA) on 72 x gb200-nvl72 (gb200-nvl72, 72 per scale-up domain)
stdout-has: software: megatron-core, assumed: none given (--software or the spec's software: section) (host CPU grace)
stdout-has:   on the plain eager stack: 71668 tokens/s (-15.6% against the first layout below)
stdout-has: global batch 1152 x 4096 tokens, bf16; MFU against the dense bf16 peak, 2500.0 TFLOP/s
stdout-has: searched 12726 layouts that pass the rules, 16 fit in memory, in
stdout-has: #  tp  pp  dp  cp  ep  etp  vpp  mbs  recompute  zero  step s  tokens/s    MFU    GiB  limited by         tok/s/GPU band  gaps
stdout-has: 1   8   1   9   1   8    1    1    4       full  3     55.573     84908  13.8%  170.2  communication 52%       820-1,300  T1 T2 T3 T4 C1
stdout-has: 2   4   1  18   1   8    1    1    2       full  3     56.381     83691  13.6%  170.2  communication 55%       810-1,300  T1 T2 T3 T4 C1
stdout-has: 3   2   1  36   1   8    1    1    1       full  3     58.228     81037  13.1%  170.4  communication 58%       780-1,200  T1 T2 T3 T4 C1
stdout-has: 4   2   1  36   1   4    2    1    1       full  3     71.620     65883  10.7%  170.4  communication 47%       640-1,000  T1 T2 T3 T4
stdout-has: band: P10-P90 of measured / predicted for MoE Blackwell (11 rows from 4 sources); gaps: docs/model.md
stdout-has: layout #2: tp 4  pp 1  dp 18  cp 1  ep 8  vpp 1  mbs 2  gbs 1152  seq 4096  recompute full  zero 3  sp on  dtype bf16  etp 1
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
stdout-has:   forward     6.2913   11.2%
stdout-has:   backward   12.9060   22.9%
stdout-has:   recompute   6.0025   10.6%
stdout-has:   tp          0.1206    0.2%
stdout-has:   cp          0.0000    0.0%
stdout-has:   ep          1.2131    2.2%
stdout-has:   pp          0.0000    0.0%
stdout-has:   bubble      0.0000    0.0%
stdout-has:   dp         29.7283   52.7%
stdout-has:   optimizer   0.0504    0.1%
stdout-has:   host        0.0688    0.1%
stdout-has:   step       56.3810  100.0%
stdout-has: throughput
stdout-has:   tokens/s               83691 (1162.4 per accelerator)
stdout-has:   model TFLOP/s per GPU  339.2
stdout-has:   MFU                    13.6% of the bf16 peak, 2500.0 TFLOP/s (model FLOPs: 72-coefficient formula per GEMM, no recompute)
stdout-has:   HFU                    18.0% (with recompute: 96-coefficient for full)
stdout-has:   limited by             communication 55%
stdout-has:   GEMM rates             extrapolated (a shape or type outside the measured kernel tables)
stdout-has: against #1 (55.573 s), where the 0.808 s go:
stdout-has:   forward    -0.4175 s
stdout-has:   backward   -0.7943 s
stdout-has:   recompute  -0.4175 s
stdout-has:   tp         -0.1512 s
stdout-has:   dp         +2.5886 s

# golden (issue 14, model/ refactor): the search for a large MoE model; every line of stdout but the search's wall time
args: sim train examples/gb200-nvl72.yaml --model deepseek-v3 --search --top 4 --explain 2
exit: 0
stderr-empty:
stdout-has: DeepSeek-V3 (MoE, MLA) on 72 x gb200-nvl72 (gb200-nvl72, 72 per scale-up domain)
stdout-has: software: megatron-core, assumed: none given (--software or the spec's software: section) (host CPU grace)
stdout-has:   on the plain eager stack: 63470 tokens/s (-13.0% against the first layout below)
stdout-has: global batch 1152 x 4096 tokens, bf16; MFU against the dense bf16 peak, 2500.0 TFLOP/s
stdout-has: searched 12726 layouts that pass the rules, 16 fit in memory, in
stdout-has: #  tp  pp  dp  cp  ep  etp  vpp  mbs  recompute  zero  step s  tokens/s    MFU    GiB  limited by         tok/s/GPU band  gaps
stdout-has: 1   8   1   9   1   8    1    1    4       full  3     64.673     72961  11.8%  170.2  communication 44%       730-1,100  T1 T2 T3 T4 C1
stdout-has: 2   4   1  18   1   8    1    1    2       full  3     64.968     72630  11.8%  170.2  communication 48%       730-1,100  T1 T2 T3 T4 C1
stdout-has: 3   2   1  36   1   8    1    1    1       full  3     66.789     70650  11.5%  170.4  communication 50%       710-1,100  T1 T2 T3 T4 C1
stdout-has: 4   2   1  36   1   4    2    1    1       full  3     78.738     59928   9.7%  170.4  communication 43%         600-920  T1 T2 T3 T4
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
stdout-has:   forward     8.4457   13.0%
stdout-has:   backward   17.1967   26.5%
stdout-has:   recompute   8.1443   12.5%
stdout-has:   tp          0.1206    0.2%
stdout-has:   cp          0.0000    0.0%
stdout-has:   ep          1.2131    1.9%
stdout-has:   pp          0.0000    0.0%
stdout-has:   bubble      0.0000    0.0%
stdout-has:   dp         29.7283   45.8%
stdout-has:   optimizer   0.0504    0.1%
stdout-has:   host        0.0688    0.1%
stdout-has:   step       64.9680  100.0%
stdout-has: throughput
stdout-has:   tokens/s               72630 (1008.7 per accelerator)
stdout-has:   model TFLOP/s per GPU  294.4
stdout-has:   MFU                    11.8% of the bf16 peak, 2500.0 TFLOP/s (model FLOPs: 72-coefficient formula per GEMM, no recompute)
stdout-has:   HFU                    15.6% (with recompute: 96-coefficient for full)
stdout-has:   limited by             communication 48%
stdout-has:   GEMM rates             extrapolated (a shape or type outside the measured kernel tables)
stdout-has: against #1 (64.673 s), where the 0.295 s go:
stdout-has:   forward    -0.5460 s
stdout-has:   backward   -1.0465 s
stdout-has:   recompute  -0.5496 s
stdout-has:   tp         -0.1512 s
stdout-has:   dp         +2.5886 s

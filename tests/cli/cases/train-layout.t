# GPT-3 175B on 64 A100 as Korthikanti et al. ran it (TP 8, PP 8,
# interleaved 3, 2022 Megatron-LM): memory, step breakdown, MFU and HFU;
# goodput from the spec's storage section
args: sim train tests/fixtures/train/a100-64.yaml --model gpt3-175b --tp 8 --pp 8 --vpp 3 --gbs 64 --recompute full --zero 0 --no-sp --dtype fp16 --legacy
covers: spec net workload study render
exit: 0
stdout-has: GPT-3 175B on 64 x a100-sxm4-80gb (a100-64, 8 per scale-up domain)
stdout-has: layout: tp 8  pp 8  dp 1  cp 1  ep 1  vpp 3  mbs 1  gbs 64  seq 2048  recompute full  zero 0  sp off  dtype fp16
stdout-has:   fits:
stdout-has: step time (64 micro-batches per pipeline)
stdout-has:   bubble
stdout-has:   MFU
stdout-has: (model FLOPs: 72-coefficient formula per GEMM, no recompute)
stdout-has:   interval Young / Daly
stdout-has:   ETTR
stderr-empty:

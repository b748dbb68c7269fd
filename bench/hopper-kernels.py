#!/usr/bin/env python3
# hopper-kernels.py: the kernel rates behind the training model's Hopper
# calibration (docs/benchmarks.md, "Hopper kernel rates"). Needs one
# NVIDIA GPU and PyTorch. Prints: BF16 GEMM rates (cuBLAS) at the GEMM
# shapes of the Megatron-LM README H100 layouts (forward, data gradient,
# weight gradient; 4096 tokens a micro-batch), fused attention (cuDNN,
# the backend Transformer Engine picks on Hopper, and FlashAttention-2)
# forward and backward at 4096 tokens, head size 128, causal, each beside
# a GEMM timed just before it, and the sustained GEMM rate with the
# clock and power over 90 s.
import subprocess
import time

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

DEV, BF16, TOKENS = "cuda", torch.bfloat16, 4096


def timed(fn, n=20, warm=5):
    """Mean seconds of fn over n calls after warm calls."""
    for _ in range(warm):
        fn()
    a, b = (torch.cuda.Event(enable_timing=True) for _ in range(2))
    torch.cuda.synchronize()
    a.record()
    for _ in range(n):
        fn()
    b.record()
    torch.cuda.synchronize()
    return a.elapsed_time(b) / n / 1e3


def gemm(m, n, k, iters=20, warm=5):
    """TFLOP/s of an (m x k) @ (k x n) BF16 product on random data."""
    x = torch.randn(m, k, device=DEV, dtype=BF16)
    y = torch.randn(k, n, device=DEV, dtype=BF16)
    return 2 * m * n * k / timed(lambda: x @ y, iters, warm) / 1e12


def attention(heads, backend, seq=TOKENS, hd=128):
    """Forward and backward TFLOP/s, FlashAttention's FLOP convention."""
    q, k, v = (torch.randn(1, heads, seq, hd, device=DEV, dtype=BF16,
                           requires_grad=True) for _ in range(3))
    flops = 4 * seq * seq * heads * hd / 2
    with sdpa_kernel(backend):
        fwd = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True)
        tf = timed(fwd)
        grad = torch.randn_like(fwd())
        tb = timed(lambda: torch.autograd.grad(fwd(), (q, k, v), grad)) - tf
    return flops / tf / 1e12, 2.5 * flops / tb / 1e12


print(torch.__version__, torch.version.cuda, torch.backends.cudnn.version(),
      torch.cuda.get_device_name())
for shape in [(8192, 8192, 8192), (2048, 2048, 13312)]:
    print("gemm burst %s %.0f" % ("x".join(map(str, shape)),
                                  gemm(*shape, iters=100, warm=50)))

# (hidden, TP) of the README rows: GPT-1.7B to 462B
for h, tp in [(2048, 1), (4096, 2), (6144, 4), (7168, 8), (8192, 8),
              (12288, 8), (18432, 8)]:
    flops = secs = 0
    for m, n, k in [(TOKENS, 3 * h // tp, h), (TOKENS, h, h // tp),
                    (TOKENS, 4 * h // tp, h), (TOKENS, h, 4 * h // tp)]:
        for mm, nn, kk in [(m, n, k), (m, k, n), (k, n, m)]:
            rate = gemm(mm, nn, kk)
            flops += 2 * mm * nn * kk
            secs += 2 * mm * nn * kk / (rate * 1e12)
    print("gemm layer h=%d tp=%d %.0f" % (h, tp, flops / secs / 1e12))

for heads in [16, 12, 8]:
    for be in [SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION]:
        ref = gemm(TOKENS, 6144, 12288, iters=100, warm=20)
        f, b = attention(heads, be)
        print("attn heads=%d %s fwd %.0f bwd %.0f gemm %.0f "
              "fwd/gemm %.2f bwd/gemm %.2f"
              % (heads, be.name, f, b, ref, f / ref, b / ref))

smi = subprocess.Popen(["nvidia-smi", "--query-gpu=clocks.sm,power.draw",
                        "--format=csv,noheader", "-lms", "5000"],
                       stdout=subprocess.PIPE, text=True)
t0, rates = time.time(), []
while time.time() - t0 < 90:
    rates.append(gemm(TOKENS, 6144, 12288, iters=200, warm=0))
smi.kill()
print("gemm sustained 90 s: first %.0f, mean of the last half %.0f"
      % (rates[0], sum(rates[len(rates) // 2:]) / (len(rates) -
                                                    len(rates) // 2)))
print("clock, power every 5 s:", " | ".join(smi.stdout.read().split("\n")))

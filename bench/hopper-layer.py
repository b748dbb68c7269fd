#!/usr/bin/env python3
# hopper-layer.py: one whole micro-batch of the Megatron-LM README's GPT
# 1.7B and 7.1B models on one GPU (docs/benchmarks.md, "Hopper kernel
# rates"), to compare with the training model's kernel time for the same
# micro-batch. Needs one NVIDIA GPU and PyTorch. Eager PyTorch, BF16:
# LayerNorm, QKV, cuDNN fused attention (causal), projection, residual,
# LayerNorm, FC1, GeLU, FC2, residual per layer; then the logits against
# the 131,072-entry vocabulary and a cross entropy in FP32 written as
# Megatron's kernels (max, subtract, exp, sum, log, pick). 4,096 tokens,
# micro-batch 1; forward and backward, mean of 20 after 5 warm-up, the
# card first brought to its power limit.
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

DEV, BF16, SEQ, VOCAB = "cuda", torch.bfloat16, 4096, 131072


def param(*shape):
    return (torch.randn(*shape, device=DEV, dtype=BF16) * 0.02) \
        .requires_grad_()


def micro_batch_ms(h, heads, layers, head):
    """Forward + backward of `layers` layers (and the output layer and
    loss when `head`), milliseconds."""
    weights = [(param(3 * h, h), param(h, h), param(4 * h, h),
                param(h, 4 * h), param(h), param(h)) for _ in range(layers)]
    emb = param(VOCAB, h)
    labels = torch.randint(0, VOCAB, (SEQ,), device=DEV)
    params = [p for w in weights for p in w] + [emb]

    def layer(x, w):
        qkv_w, proj_w, fc1_w, fc2_w, ln1, ln2 = w
        y = F.layer_norm(x, (h,), ln1)
        qkv = F.linear(y, qkv_w).view(1, SEQ, 3, heads, h // heads) \
            .permute(2, 0, 3, 1, 4)
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            z = F.scaled_dot_product_attention(qkv[0], qkv[1], qkv[2],
                                               is_causal=True)
        x = x + F.linear(z.transpose(1, 2).reshape(1, SEQ, h), proj_w)
        y = F.layer_norm(x, (h,), ln2)
        return x + F.linear(F.gelu(F.linear(y, fc1_w), approximate="tanh"),
                            fc2_w)

    def step():
        for p in params:
            p.grad = None
        x = torch.randn(1, SEQ, h, device=DEV, dtype=BF16,
                        requires_grad=True)
        for w in weights:
            x = layer(x, w)
        if head:
            logits = F.linear(x, emb).float().view(SEQ, VOCAB)
            logits = logits - logits.max(-1)[0][:, None]
            loss = (torch.log(logits.exp().sum(-1)) -
                    logits[torch.arange(SEQ, device=DEV), labels]).mean()
        else:
            loss = x.float().sum()
        loss.backward()

    for _ in range(5):
        step()
    a, b = (torch.cuda.Event(enable_timing=True) for _ in range(2))
    torch.cuda.synchronize()
    a.record()
    for _ in range(20):
        step()
    b.record()
    torch.cuda.synchronize()
    return a.elapsed_time(b) / 20


heat = torch.randn(8192, 8192, device=DEV, dtype=BF16)
for _ in range(300):
    heat @ heat
for h, heads, layers in [(2048, 16, 24), (4096, 32, 30)]:
    print(h, layers,
          "layers %.1f ms" % micro_batch_ms(h, heads, layers, False),
          "with head %.1f ms" % micro_batch_ms(h, heads, layers, True),
          flush=True)

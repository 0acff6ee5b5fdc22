#!/usr/bin/env python3
"""pt-step.py - a small PyTorch training step whose launches occcalc's
tests read: cuBLAS GEMMs (bf16 and fp32, cluster launches among them on
Hopper), flash attention (scaled_dot_product_attention), layer norm, a
convolution (cuDNN), elementwise and reduction kernels, a fused AdamW
step, and Triton kernels of a torch.compile'd function.

    pt-step.py [--steps N] [--profile OUT.json] [--no-compile]

With --profile, the steps run under torch.profiler (CPU and CUDA
activities, record_shapes, with_stack, with_modules) and the Chrome trace
is written to OUT.json; without, the steps just run (as under
occcalc --trace, which must not share CUPTI with the profiler).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.norm2 = nn.LayerNorm(d)
        self.up = nn.Linear(d, 4 * d)
        self.down = nn.Linear(4 * d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2)
                   for z in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, d))
        return x + self.down(F.gelu(self.up(self.norm2(x))))


class Model(nn.Module):
    def __init__(self, vocab=4096, d=512, heads=8, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.conv = nn.Conv1d(d, d, kernel_size=3, padding=1)
        self.blocks = nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.head = nn.Linear(d, vocab)

    def forward(self, idx):
        x = self.emb(idx)
        x = x + self.conv(x.transpose(1, 2)).transpose(1, 2)
        for blk in self.blocks:
            x = blk(x)
        return self.head(x)


def scale_shift(x, w, b):
    return torch.tanh(x * w + b) * 0.5 + x.softmax(dim=-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=6)
    ap.add_argument("--profile")
    ap.add_argument("--no-compile", action="store_true")
    args = ap.parse_args()

    torch.manual_seed(0)
    dev = "cuda"
    model = Model().to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, fused=True)
    fused = scale_shift if args.no_compile else torch.compile(scale_shift)
    idx = torch.randint(0, 4096, (8, 256), device=dev)
    w = torch.randn(8, 256, 4096, device=dev)
    b = torch.randn(4096, device=dev)

    def step():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            logits = model(idx)
        logits = fused(logits.float(), w, b)
        loss = F.cross_entropy(logits.view(-1, 4096), idx.view(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        return loss

    for _ in range(2):          # warm-up: compile, cuBLAS and cuDNN plans
        step()
    torch.cuda.synchronize()
    if not args.profile:
        for _ in range(args.steps):
            step()
        torch.cuda.synchronize()
        return
    acts = [torch.profiler.ProfilerActivity.CPU,
            torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=acts, record_shapes=True,
                                with_stack=True, with_modules=True) as prof:
        for _ in range(args.steps):
            step()
        torch.cuda.synchronize()
    prof.export_chrome_trace(args.profile)


if __name__ == "__main__":
    main()

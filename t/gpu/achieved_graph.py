#!/usr/bin/env python3
"""achieved_graph.py - a PyTorch program that captures a CUDA graph and
replays it: under occcalc --trace --achieved the launches captured must
run untouched (the profiler synchronises; a capture would break), the
ones before measured. Prints the result, which must be 3.0."""
import torch

x = torch.ones(1 << 20, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    for _ in range(3):
        y = x * 2 + 1
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = x * 2 + 1
g.replay()
torch.cuda.synchronize()
print(float(y.mean()))

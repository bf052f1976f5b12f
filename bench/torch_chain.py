"""torch.compile (default mode) against eager PyTorch on the elementwise chain
min(max(x * a + b, lo), hi) and a copy, on the GPU: CUDA-event time, median of 30 runs after
2 s of warm-up right before each measurement. Usage: python3 bench/torch_chain.py [log2 sizes...]"""
import statistics
import sys
import time

import torch


def median_ms(fn, runs=30):
    end = time.time() + 2.0
    while time.time() < end:
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times)


def chain(x, a: float, b: float, lo: float, hi: float):
    return torch.clamp(x * a + b, lo, hi)


def main():
    sizes = [int(s) for s in sys.argv[1:]] or [24, 26, 28]
    compiled = torch.compile(chain)
    print(f"{torch.cuda.get_device_name()} torch {torch.__version__}; CUDA-event time, median of 30")
    for log in sizes:
        n = 1 << log
        x = torch.rand(n, device="cuda")
        y = torch.empty_like(x)
        copy = median_ms(lambda: y.copy_(x))
        eager = median_ms(lambda: chain(x, 1.0001, 0.5, -4.0, 4.0))
        fused = median_ms(lambda: compiled(x, 1.0001, 0.5, -4.0, 4.0))
        print(f"2^{log:<3} copy {copy:.4f} ms  chain eager {eager:.4f} ms  chain torch.compile {fused:.4f} ms")


if __name__ == "__main__":
    main()

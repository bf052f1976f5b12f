"""torch.bincount on HistogramBench's inputs (the same values: uniform bytes from a fixed hash, and
90 % of them in bin 7), by torch_suite.py's protocol. Three figures per input:
  "torch bincount call": CUDA-event time of the whole call torch.bincount(v & 255, minlength=256),
      host synchronizations included (bincount reads the maximum back to size its output);
  "torch bincount kernels": the device time of every kernel that call launches (the & 255, the
      maximum, the zeroing, the histogram), from torch.profiler, mean of 30 calls;
  "torch histogram kernel": the histogram kernel alone, likewise.
Writes <out dir>/torch-histogram.csv in Results' columns.
Usage: python3 bench/torch_histogram.py <out dir> [log2 sizes...]   (default 24 26 28)"""
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile

from torch_suite import SETS, measure, row, sm_clock_mhz

MASK = 0xFFFFFFFF


def values(n, skew):
    i = torch.arange(n, device="cuda", dtype=torch.int64)
    h = (i * 0x9E3779B9) & MASK
    h ^= h >> 15
    h = (h * 0x2C1B3C6D) & MASK
    h ^= h >> 12
    return torch.where(h % 100 < skew, torch.full_like(h, 7), h >> 8).to(torch.int32)


def kernel_times(call, runs=30):
    """Mean device time per call of all its kernels, and of those whose name has 'histogram'."""
    for _ in range(3):
        call()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(runs):
            call()
        torch.cuda.synchronize()
    kernels = [e for e in prof.events() if e.device_type.name == "CUDA"]
    total = sum(e.device_time for e in kernels) / runs / 1000.0
    histogram = sum(e.device_time for e in kernels if "istogram" in e.name) / runs / 1000.0
    return total, histogram


def main():
    out = sys.argv[1]
    logs = [int(s) for s in sys.argv[2:]] or [24, 26, 28]
    rows = ["workload,variant,n,work,median_ms,p10_ms,p90_ms,clock_mhz"]
    for log in logs:
        n = 1 << log
        for skew in (0, 90):
            workload = "histogram" if skew == 0 else "histogram skewed"
            inputs = [values(n, skew) for _ in range(SETS)]
            expected = torch.bincount((inputs[0] & 255).cpu().long(), minlength=256)
            assert torch.equal(torch.bincount(inputs[0] & 255, minlength=256).cpu(), expected)
            rows.append(row(workload, "torch bincount call", n, 4 * n,
                            measure(lambda s: torch.bincount(inputs[s] & 255, minlength=256))))
            measure(lambda s: torch.bincount(inputs[s] & 255, minlength=256))  # warm again for the profiler
            total, histogram = kernel_times(lambda: torch.bincount(inputs[0] & 255, minlength=256))
            clock = sm_clock_mhz()
            rows.append(row(workload, "torch bincount kernels", n, 4 * n, (total, total, total, clock)))
            rows.append(row(workload, "torch histogram kernel", n, 4 * n, (histogram, histogram, histogram, clock)))
            del inputs
            torch.cuda.empty_cache()
    with open(os.path.join(out, "torch-histogram.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()

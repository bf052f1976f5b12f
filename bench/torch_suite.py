"""PyTorch on the suite's elementwise workloads, same card, same protocol as dev.kiln.bench.GpuSuite:
at least 1.5 s of warm-up right before each figure, CUDA-event time, median and 10th/90th percentile
of 30 runs, inputs rotated over 3 sets, each output checked, the SM clock read from nvidia-smi after
the runs. Writes <out dir>/torch.csv in GpuSuite's columns, which GpuSuite adds to its plot.
Usage: python3 bench/torch_suite.py <out dir> [log2 sizes...]   (default 20 22 24 26 28)"""
import os
import statistics
import subprocess
import sys
import time

import torch

RUNS = 30
SETS = 3
A, B, LO, HI = 1.0001, 0.5, -4.0, 4.0


def sm_clock_mhz():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=clocks.sm", "--format=csv,noheader,nounits"],
                             capture_output=True, text=True, check=True).stdout
        return int(out.split()[0])
    except (OSError, subprocess.CalledProcessError, ValueError, IndexError):
        return -1


def measure(run):
    """run(set) launches one run on input set `set`."""
    end = time.time() + 1.5
    k = 0
    while time.time() < end:
        run(k % SETS)
        k += 1
    torch.cuda.synchronize()
    times = []
    for r in range(RUNS):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        run(r % SETS)
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    times.sort()
    return statistics.median(times), times[RUNS // 10], times[RUNS - 1 - RUNS // 10], sm_clock_mhz()


def chain(x, a: float, b: float, lo: float, hi: float):
    return torch.clamp(x * a + b, lo, hi)


def stencil(x):
    """0.5 x + 0.125 (sum of the 4 neighbours) inside, the border copied, as Workgroups.stencil."""
    out = x.clone()
    neighbours = ((x[1:-1, :-2] + x[1:-1, 2:]) + x[:-2, 1:-1]) + x[2:, 1:-1]
    out[1:-1, 1:-1] = 0.5 * x[1:-1, 1:-1] + 0.125 * neighbours
    return out


def row(workload, variant, n, work, figure):
    median, low, high, clock = figure
    unit = "GFLOP/s" if workload.endswith("gemm") else "GB/s"
    print(f"{workload:10} {variant:18} n={n:<10} {median:9.4f} ms (p10 {low:.4f}, p90 {high:.4f})"
          f" {work / (median * 1e6):7.0f} {unit}  SM {clock} MHz")
    return f"{workload},{variant},{n},{work},{median:.5f},{low:.5f},{high:.5f},{clock}"


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "bench-results"
    sizes = [int(s) for s in sys.argv[2:]] or [20, 22, 24, 26, 28]
    os.makedirs(out, exist_ok=True)
    compiled = torch.compile(chain)
    rows = ["workload,variant,n,work,median_ms,p10_ms,p90_ms,clock_mhz"]
    torch.backends.cuda.matmul.allow_tf32 = False  # fp32 products, as Kiln's
    compiled_stencil = torch.compile(stencil)
    print(f"{torch.cuda.get_device_name()} torch {torch.__version__}")
    for log in sizes:
        n = 1 << log
        xs = [torch.rand(n, device="cuda") * 4 - 2 for _ in range(SETS)]
        ys = [torch.rand(n, device="cuda") * 4 - 2 for _ in range(SETS)]
        outs = [torch.empty_like(xs[0]) for _ in range(SETS)]
        # each output checked once before its time counts
        outs[0].copy_(xs[0])
        assert torch.equal(outs[0], xs[0])
        expected = torch.clamp(xs[0] * A + B, LO, HI)
        assert torch.equal(chain(xs[0], A, B, LO, HI), expected)
        # torch.compile differs from eager in the last bits (an fma of x * a + b?): within 1e-6 here
        assert (compiled(xs[0], A, B, LO, HI) - expected).abs().max().item() <= 1e-6
        saxpy_expected = ys[0] + A * xs[0]
        assert (ys[0].clone().add_(xs[0], alpha=A) - saxpy_expected).abs().max().item() <= 1e-6
        figures = {
            ("copy", "torch"): (8 * n, measure(lambda s: outs[s].copy_(xs[s]))),
            ("saxpy", "torch"): (12 * n, measure(lambda s: ys[s].add_(xs[s], alpha=A))),
            ("chain", "torch eager"): (8 * n, measure(lambda s: chain(xs[s], A, B, LO, HI))),
            ("chain", "torch.compile"): (8 * n, measure(lambda s: compiled(xs[s], A, B, LO, HI))),
        }
        del xs, ys, outs
        ints = [torch.randint(-2**31, 2**31 - 1, (n,), dtype=torch.int32, device="cuda") for _ in range(SETS)]
        assert ints[0].sum().item() == ints[0].cpu().to(torch.int64).sum().item()
        figures[("sum", "torch")] = (4 * n, measure(lambda s: ints[s].sum()))
        low = ints[0] & 255
        assert torch.equal(torch.bincount(low, minlength=256).cpu(), torch.bincount(low.cpu(), minlength=256))
        figures[("histogram", "torch bincount")] = (4 * n, measure(lambda s: torch.bincount(ints[s] & 255, minlength=256)))
        del ints
        side = 1 << (log // 2)
        grids = [torch.rand(side, side, device="cuda") * 4 - 2 for _ in range(SETS)]
        assert torch.equal(stencil(grids[0]).cpu(), stencil(grids[0].cpu()))
        assert (compiled_stencil(grids[0]) - stencil(grids[0])).abs().max().item() <= 1e-6
        figures[("stencil", "torch eager")] = (8 * side * side, measure(lambda s: stencil(grids[s])))
        figures[("stencil", "torch.compile")] = (8 * side * side, measure(lambda s: compiled_stencil(grids[s])))
        del grids
        torch.cuda.empty_cache()
        for (workload, variant), (work, figure) in figures.items():
            rows.append(row(workload, variant, side * side if workload == "stencil" else n, work, figure))
    for n in [2048, 4096]:
        a = [torch.rand(n, n, device="cuda") * 4 - 2 for _ in range(SETS)]
        b = [torch.rand(n, n, device="cuda") * 4 - 2 for _ in range(SETS)]
        assert torch.allclose(torch.mm(a[0], b[0]), (a[0].double() @ b[0].double()).float(), rtol=1e-4, atol=1e-3)
        rows.append(row("sgemm", "torch.mm (cuBLAS)", n, 2 * n ** 3, measure(lambda s: torch.mm(a[s], b[s]))))
        del a, b
        torch.cuda.empty_cache()
    with open(os.path.join(out, "torch.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()

"""PyTorch on LibraryBench's shapes, by torch_suite.py's protocol (CUDA events, medians of its runs
after a warm-up): torch.mv of float32, float16 and bfloat16 matrices (the vector in the matrix's
type: PyTorch has no mixed matrix-vector product), and softmax, RMSNorm and LayerNorm over the last
dimension of float32 rows; torch.cumsum of int32 and float32 vectors and torch.bincount of 256
values; torch.sort of 2^26 int32 keys; copies (Tensor.copy_ of as many bytes as the float16 GEMV
matrices, the float rows and 2 GiB: the copy rate the issue's bandwidth targets are fractions of,
bytes read and written); matrix products (a @ b, TF32 off) in float32, float16 and bfloat16 at
every shape. Work is bytes moved, as LibraryBench counts them.
Writes <out dir>/torch-library.csv in Results' columns.
Usage: python3 bench/torch_library.py <out dir>"""
import os
import sys

import torch
import torch.nn.functional as F

from torch_suite import SETS, measure, row

GEMV_SHAPES = [(4096, 4096), (14336, 4096), (128256, 2048)]
ROW_SHAPES = [(4096, 4096), (64, 128256), (1, 128256)]
SCAN_LOGS = [24, 28]
GEMM_SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (4000, 3000, 2000), (1000, 1000, 1000), (8192, 128, 8192),
               (512, 2048, 2048), (512, 8192, 2048), (512, 2048, 8192)]


def rms_norm(x, weight, eps):
    if hasattr(F, "rms_norm"):
        return F.rms_norm(x, (x.shape[-1],), weight, eps)
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "bench-results"
    # a comma list of gemv,rows,scan,sort,copy,gemm,sgemm (all but sgemm by default), as LibraryBench
    # takes them (copy is torch's alone)
    parts = set(sys.argv[2].split(",")) if len(sys.argv) > 2 else {"gemv", "rows", "scan", "sort", "copy", "gemm"}
    os.makedirs(out, exist_ok=True)
    rows = ["workload,variant,n,work,median_ms,p10_ms,p90_ms,clock_mhz"]
    torch.backends.cuda.matmul.allow_tf32 = False
    if "gemv" in parts:
        for r, c in GEMV_SHAPES:
            n = r * c
            for dtype, name, size in ((torch.float32, "torch f32", 4), (torch.float16, "torch f16", 2),
                                      (torch.bfloat16, "torch bf16", 2)):
                a = [torch.rand(r, c, device="cuda", dtype=dtype) * 2 - 1 for _ in range(SETS)]
                x = torch.rand(c, device="cuda", dtype=dtype)
                rows.append(row(f"gemv {r}x{c}", name, n, size * n + size * (r + c), measure(lambda s: torch.mv(a[s], x))))
                del a
                torch.cuda.empty_cache()
    if "rows" in parts:
        for r, c in ROW_SHAPES:
            n = r * c
            x = [torch.rand(r, c, device="cuda") * 2 - 1 for _ in range(SETS)]
            weight = torch.rand(c, device="cuda")
            bias = torch.rand(c, device="cuda")
            rows.append(row(f"softmax {r}x{c}", "torch", n, 8 * n, measure(lambda s: torch.softmax(x[s], -1))))
            rows.append(row(f"rmsnorm {r}x{c}", "torch", n, 8 * n, measure(lambda s: rms_norm(x[s], weight, 1e-5))))
            rows.append(row(f"layernorm {r}x{c}", "torch", n, 8 * n,
                            measure(lambda s: F.layer_norm(x[s], (c,), weight, bias, 1e-5))))
    if "scan" in parts:
        for log in SCAN_LOGS:
            n = 1 << log
            ints = [torch.randint(-1000, 1000, (n,), device="cuda", dtype=torch.int32) for _ in range(2)]
            rows.append(row(f"scan ints 2^{log}", "torch", n, 8 * n,
                            measure(lambda s: torch.cumsum(ints[s % 2], 0, dtype=torch.int32))))
            del ints
            floats = [torch.rand(n, device="cuda") for _ in range(2)]
            rows.append(row(f"scan floats 2^{log}", "torch", n, 8 * n, measure(lambda s: torch.cumsum(floats[s % 2], 0))))
            del floats
            values = [torch.randint(0, 256, (n,), device="cuda", dtype=torch.int32) for _ in range(2)]
            rows.append(row(f"histogram 256 2^{log}", "torch", n, 4 * n,
                            measure(lambda s: torch.bincount(values[s % 2], minlength=256))))
            del values
            torch.cuda.empty_cache()
    if "sort" in parts:
        n = 1 << 26
        keys = [torch.randint(-2**31, 2**31 - 1, (n,), device="cuda", dtype=torch.int32) for _ in range(2)]
        rows.append(row("sort ints 2^26", "torch", n, 8 * n, measure(lambda s: torch.sort(keys[s % 2]))))
        del keys
        save(out, rows)
    if "copy" in parts:
        # the float16 GEMV matrices, the float rows, 2 GiB: float16 elements of as many bytes
        for n in [r * c for r, c in GEMV_SHAPES] + [2 * r * c for r, c in ROW_SHAPES] + [1 << 30]:
            src = [torch.empty(n, device="cuda", dtype=torch.float16).normal_() for _ in range(2)]
            dst = [torch.empty_like(t) for t in src]
            rows.append(row(f"copy {2 * n} bytes", "torch", n, 4 * n, measure(lambda s: dst[s % 2].copy_(src[s % 2]))))
            del src, dst
            torch.cuda.empty_cache()
        save(out, rows)
    if "gemm" in parts:
        for m, n, k in GEMM_SHAPES:
            a = torch.rand(m, k, device="cuda") * 2 - 1
            b = torch.rand(k, n, device="cuda") * 2 - 1
            rows.append(row(f"gemm {m}x{n}x{k}", "torch f32", m, 2 * m * n * k, measure(lambda s: a @ b)))
            for dtype, name in ((torch.float16, "torch f16"), (torch.bfloat16, "torch bf16")):
                a16, b16 = a.to(dtype), b.to(dtype)
                rows.append(row(f"gemm {m}x{n}x{k}", name, m, 2 * m * n * k, measure(lambda s: a16 @ b16)))
                bt = b16.t().contiguous()  # b as n rows of k, as a model's weights lie
                rows.append(row(f"gemm {m}x{n}x{k}", name + " bT", m, 2 * m * n * k, measure(lambda s: a16 @ bt.t())))
                del a16, b16, bt
            del a, b
            torch.cuda.empty_cache()
            save(out, rows)
    if "sgemm" in parts:  # the float32 products alone
        for m, n, k in GEMM_SHAPES:
            a = torch.rand(m, k, device="cuda") * 2 - 1
            b = torch.rand(k, n, device="cuda") * 2 - 1
            rows.append(row(f"gemm {m}x{n}x{k}", "torch f32", m, 2 * m * n * k, measure(lambda s: a @ b)))
            del a, b
            torch.cuda.empty_cache()
    save(out, rows)


def save(out, rows):
    """Writes the rows so far (after each shape, so that a run cut off by its time limit keeps them)."""
    with open(os.path.join(out, "torch-library.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()

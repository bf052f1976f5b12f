"""PyTorch's matrix products on the sides GemmBench measures, by torch_suite.py's protocol (1.5 s of
warm-up right before each figure, CUDA-event time, median of 30, 3 input sets, checked): fp32 with
TF32 off (cuBLAS SGEMM, what GemmBench's kernels compare with), and bf16 and f16 in, for the
cooperative-matrix GEMMs. Writes <out dir>/torch-gemm.csv in Results' columns.
Usage: python3 bench/torch_gemm.py <out dir> [sides...]   (default 4096 8192)"""
import os
import sys

import torch

from torch_suite import SETS, measure, row

torch.backends.cuda.matmul.allow_tf32 = False


def main():
    out = sys.argv[1]
    sides = [int(s) for s in sys.argv[2:]] or [4096, 8192]
    rows = ["workload,variant,n,work,median_ms,p10_ms,p90_ms,clock_mhz"]
    for n in sides:
        for dtype, workload in [(torch.float32, "sgemm"), (torch.bfloat16, "bf16 gemm"), (torch.float16, "f16 gemm")]:
            a = [(torch.rand(n, n, device="cuda") * 4 - 2).to(dtype) for _ in range(SETS)]
            b = [(torch.rand(n, n, device="cuda") * 4 - 2).to(dtype) for _ in range(SETS)]
            reference = a[0].double() @ b[0].double()
            error = (torch.mm(a[0], b[0]).double() - reference).abs().max().item()
            assert error <= (1e-6 * n if dtype == torch.float32 else 0.1 * n ** 0.5), (workload, error)
            rows.append(row(workload, "torch.mm", n, 2 * n ** 3, measure(lambda s: torch.mm(a[s], b[s]))))
            del a, b, reference
            torch.cuda.empty_cache()
    with open(os.path.join(out, "torch-gemm.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env bash
# The library-grade kernels of issue 28 on the GPU machine, in one device call with .gpu carried
# (made by ../shared/gpu-bundle.sh .gpu and bench/gpu-lib.sh after ./mvnw install):
#   source .gpu/env.sh && bash bench/h200-library.sh "$OUT/library"
# PyTorch first (torch.mm fp32 with TF32 off, bf16, f16; torch.bincount's call, kernels and
# histogram kernel), then Kiln and the GLSL twins in the same run: GemmBench (the blocked SGEMM
# against its twins and the 16 x 16 kernel) and HistogramBench (the fast histogram on persistent
# grids, uniform and skewed input). KILN_GEMM_SIDES (default "4096 8192") and KILN_HISTOGRAM_LOGS
# (default "24 26 28") shrink it.
set -euo pipefail
out="${1:?usage: bench/h200-library.sh <out folder>}"
sides="${KILN_GEMM_SIDES:-4096 8192}"
logs="${KILN_HISTOGRAM_LOGS:-24 26 28}"
mkdir -p "$out"
cd "$(dirname "$0")/.."
lib='.gpu/lib/*'
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt" 2>&1 || true
(cd bench && python3 torch_gemm.py "$out" $sides) > "$out/torch-gemm.log" 2>&1 || echo "torch_gemm failed" >> "$out/torch-gemm.log"
(cd bench && python3 torch_histogram.py "$out" $logs) > "$out/torch-histogram.log" 2>&1 \
  || echo "torch_histogram failed" >> "$out/torch-histogram.log"
java -Xmx40g -cp "$lib" dev.kiln.bench.GemmBench "$out" $sides > "$out/gemm.log" 2>&1 || echo "GemmBench failed" >> "$out/gemm.log"
java -Xmx40g -cp "$lib" dev.kiln.bench.HistogramBench "$out" $logs > "$out/histogram.log" 2>&1 \
  || echo "HistogramBench failed" >> "$out/histogram.log"
grep -h -E '^(sgemm|bf16|f16|histogram)|failed|Error' "$out"/*.log || true

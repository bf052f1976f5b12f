#!/bin/bash
# Session 46, call 1 (carry: [".gpu-check"]: KILN_CHECK_KERNELS=700 bash bench/h200-check.sh pack of f642427, its
# bench jar in bench/). On an H200: issue 50's table (session 40's call7.sh with the pack's jars). Elsewhere: session
# 45's two float32 GEMM changes together (the columns in two halves, the split along k back): registers of the split
# kernels, Gemm.floats at issue 49's shapes and torch in the same call, the copy rate of this card through torch
# (torch_library.py's copy part); Rows at issue 49's shapes with more parts to a long row (rowsv/: LongRows.parts
# reading -Dkiln.bench.rowSplitWorkgroups and -Dkiln.bench.rowSplitColumns, 512 and 2048 in the library), torch's rows
# and copies, with rowsb/ too (SplitRowKernels reading 4 columns an invocation before folding them); the 16-bit
# products at 8192 plain and with bias and GELU, this head (L) and ep2/ (E: call1-ep2.diff, the epilogue's scratch in
# two regions a subgroup, one barrier a tile where there were two; built without -Werror: the race check cannot see
# the regions alternate), and GemmTest through E. The check follows in call1b.sh on the same warm machine.
source bench/device-call.sh
G="$PWD/.gpu-check"
L="$G/bench/*:$R/.gpu/lib/*"
if grep -q H200 $O/gpu.txt; then
  sed "s#\$G/v5/\*:##" docs/bench/2026-12-07-session40/call7.sh > /tmp/call7.sh && bash /tmp/call7.sh
  exit 0
fi
$J -cp "$L" dev.kiln.bench.PipelineStats dev/kiln/library/GemmKernels.floatSlicesInQuads.spv dev/kiln/library/GemmKernels.floatSlices.spv dev/kiln/library/GemmKernels.floatsInQuadsScaled.spv dev/kiln/library/GemmKernels.floatsInBlocksScaled.spv 2>&1 | grep -E "spv|Register|Binary" | tee $O/stats.txt
timeout -s QUIT -k 5 70 $J -Dkiln.bench.gemmShapes=4096x4096x4096,8192x8192x8192,4000x3000x2000,1000x1000x1000,8192x128x8192,512x2048x2048 -cp "$L" dev.kiln.bench.LibraryBench /tmp/res/f sgemm 2>&1 | grep -E "GFLOP/s|Exception" | tee $O/sgemm.txt
(cd bench && timeout 70 python3 - <<'PY' 2>&1 | tee -a $O/sgemm.txt
import torch
from torch_suite import measure
torch.backends.cuda.matmul.allow_tf32 = False
for m, n, k in [(4096,4096,4096),(8192,8192,8192),(4000,3000,2000),(1000,1000,1000),(8192,128,8192),(512,2048,2048)]:
    a = [torch.rand(m, k, device="cuda") for _ in range(3)]
    b = [torch.rand(k, n, device="cuda") for _ in range(3)]
    r = measure(lambda s: a[s] @ b[s])
    print(f"torch f32 {m}x{n}x{k}: {r[0]:.4f} ms, {2*m*n*k/r[0]/1e6:,.0f} GFLOP/s, clock {r[3]}", flush=True)
PY
)
for v in h:512:2048 b:512:2048 b:2048:2048 b:2048:512 h:2048:2048; do
  IFS=: read k w c <<< "$v"; B=""; [ $k = b ] && B="$G/rowsb/*:"
  timeout -s QUIT -k 5 40 $J -Dkiln.bench.rowSplitWorkgroups=$w -Dkiln.bench.rowSplitColumns=$c -cp "$G/rowsv/*:$B$L" dev.kiln.bench.LibraryBench /tmp/res/r$k$w$c rows 2>&1 | grep -E "GB/s|Exception" | sed "s/^/$v /" | tee -a $O/rows.txt
done
for v in L E; do
  C="$L"; [ $v = E ] && C="$G/ep2/*:$L"
  timeout -s QUIT -k 5 60 $J -Dkiln.bench.gemmShapes=8192x8192x8192 -cp "$C" dev.kiln.bench.LibraryBench /tmp/res/g$v gemm 2>&1 | grep -E "GFLOP/s|Exception" | grep -v "f32" | sed "s/^/$v /" | tee -a $O/epilogue.txt
done
timeout -s QUIT -k 5 100 $J -cp "$G/ep2/*:$L" org.junit.platform.console.ConsoleLauncher execute --details=summary --disable-banner \
  --select-class dev.kiln.library.GemmTest 2>&1 | tail -15 | tee $O/gemmtest-ep2.txt
(cd bench && timeout 60 python3 torch_library.py /tmp/res/torch rows,copy 2>&1 | tee -a $O/rows.txt)

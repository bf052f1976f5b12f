#!/bin/bash
# Session 45, call 1 (carry: [".gpu-check"]: KILN_CHECK_KERNELS=700 bash bench/h200-check.sh pack of fe8f8f9, its
# bench jar in bench/, and in cols/ the GemmKernels classes and modules whose invocations hold their columns in two
# halves 64 apart, first on the class path; in split/ the float32 split along k of 39e12f2 on this head, whose devices lend batches
# their scratch, with SliceProbe; in db/ cols with the whole-block kernel's stages in two workgroup buffers, one barrier a
# stage). On an H200: issue 50's table (session 40's call7.sh with the pack's
# jars). Elsewhere: registers and code size of the float32 kernels and of the bench's; Gemm.floats at 4096 / 8192 and
# two ragged shapes, this head, cols, db; the bench kernel and its GLSL twin; torch; SliceProbe; GemmTest with cols on
# the device; then bench/h200-check.sh run, cut to the call.
source bench/device-call.sh
G="$PWD/.gpu-check"
L="$G/bench/*:$R/.gpu/lib/*"
C="$G/cols/*:$L"
D="$G/db/*:$L"
if grep -q H200 $O/gpu.txt; then
  sed "s#\$G/v5/\*:##" docs/bench/2026-12-07-session40/call7.sh > /tmp/call7.sh && bash /tmp/call7.sh
  exit 0
fi
S="dev/kiln/library/GemmKernels.floatsInBlocksScaled.spv dev/kiln/library/GemmKernels.floatsInQuadsScaled.spv dev/kiln/bench/RegisterTiles.prefetchedUnchecked.spv"
for v in L C D; do
  echo "== $v" >> $O/stats.txt
  $J -cp "${!v}" dev.kiln.bench.PipelineStats $S 2>&1 | grep -v -E "JAVA_TOOL|Local Memory" >> $O/stats.txt
done
cat $O/stats.txt
for v in L C D; do
    timeout -s QUIT -k 5 50 $J -Dkiln.bench.sgemmPlain=true -Dkiln.bench.gemmShapes=4096x4096x4096,8192x8192x8192 -cp "${!v}" dev.kiln.bench.LibraryBench /tmp/res/s$v sgemm 2>&1 | grep -E "GFLOP/s|Exception" | sed "s/^/$v /" | tee -a $O/sgemm.txt
done
for v in L C; do
  timeout -s QUIT -k 5 50 $J -Dkiln.bench.gemmShapes=1000x1000x1000,4000x3000x2000 -cp "${!v}" dev.kiln.bench.LibraryBench /tmp/res/r$v sgemm 2>&1 | grep -E "GFLOP/s|Exception" | sed "s/^/$v /" | tee -a $O/sgemm.txt
done
timeout -s QUIT -k 5 60 $J "-Dkiln.bench.gemm=Kiln blocked prefetched unchecked,GLSL blocked prefetched" -cp "$L" dev.kiln.bench.GemmBench /tmp/res/gb 4096 8192 2>&1 | grep -E " n=|Exception" | tee -a $O/sgemm.txt
(cd bench && timeout 60 python3 - <<'PY' 2>&1 | tee -a $O/sgemm.txt
import torch
from torch_suite import measure
torch.backends.cuda.matmul.allow_tf32 = False
for m, n, k in [(4096,4096,4096),(8192,8192,8192),(1000,1000,1000),(4000,3000,2000)]:
    a = [torch.rand(m, k, device="cuda") for _ in range(3)]
    b = [torch.rand(k, n, device="cuda") for _ in range(3)]
    r = measure(lambda s: a[s] @ b[s])
    print(f"torch f32 {m}x{n}x{k}: {r[0]:.4f} ms, {2*m*n*k/r[0]/1e6:,.0f} GFLOP/s, clock {r[3]}", flush=True)
PY
)
timeout -s QUIT -k 5 100 $J -cp "$G/split/*:$L" dev.kiln.library.SliceProbe 2>&1 | grep -E " ms$|Exception" | tee $O/probe.txt
timeout -s QUIT -k 5 80 $J -cp "$C" org.junit.platform.console.ConsoleLauncher execute --details=summary --disable-banner \
  --select-class dev.kiln.library.GemmTest 2>&1 | tail -15 | tee $O/gemmtest-cols.txt
KILN_CHECK_TESTS_S=100 KILN_CHECK_FUZZ_S=40 KILN_CHECK_FUSION_S=30 KILN_CHECK_CORPUS_S=25 bash bench/h200-check.sh run /tmp/check 2>&1 | tee $O/check-summary.txt
tar -C /tmp -czf $O/check.tgz check

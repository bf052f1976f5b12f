#!/bin/bash
# Not run in session 45: seven tries found no machine. To run it, rebuild .gpu-check/final/ from this head (the
# library jar, and a jar of library/target/test-classes/dev/kiln/library/GemmTest*) beside the pack of call 1.
# Session 45, call 2 (carry: [".gpu-check"]: call 1's pack and bench jar, and in final/ this tree's library: call 1's
# columns in two halves with the float32 split along k back, first on the class path). The float32 products at issue
# 49's shapes against torch in the same call; the split kernel's registers; GemmTest on the device.
source bench/device-call.sh
G="$PWD/.gpu-check"
F="$G/final/*:$G/bench/*:$R/.gpu/lib/*"
$J -cp "$F" dev.kiln.bench.PipelineStats dev/kiln/library/GemmKernels.floatSlicesInQuads.spv dev/kiln/library/GemmKernels.floatsInQuadsScaled.spv 2>&1 | grep -E "spv|Register|Binary" | tee $O/stats.txt
timeout -s QUIT -k 5 60 $J -Dkiln.bench.gemmShapes=4096x4096x4096,8192x8192x8192,4000x3000x2000,1000x1000x1000,8192x128x8192,512x2048x2048 -cp "$F" dev.kiln.bench.LibraryBench /tmp/res/f sgemm 2>&1 | grep -E "GFLOP/s|Exception" | tee $O/sgemm.txt
timeout -s QUIT -k 5 40 $J -Dkiln.bench.sgemmPlain=true -Dkiln.bench.gemmShapes=4096x4096x4096,8192x8192x8192 -cp "$F" dev.kiln.bench.LibraryBench /tmp/res/p sgemm 2>&1 | grep -E "GFLOP/s|Exception" | sed "s/^/plain /" | tee -a $O/sgemm.txt
(cd bench && timeout 60 python3 - <<'PY' 2>&1 | tee -a $O/sgemm.txt
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
timeout -s QUIT -k 5 100 $J -cp "$F" org.junit.platform.console.ConsoleLauncher execute --details=summary --disable-banner \
  --select-class dev.kiln.library.GemmTest 2>&1 | tail -15 | tee $O/gemmtest.txt

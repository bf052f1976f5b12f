#!/bin/bash
# Session 44, call 1 (carry: [".gpu-check"]: session 43's pack of e13f6db (base: its jars) and bench/ its bench
# jar; split/ this session's runtime, llama and library jars (split-k for float and tensor-core products; of the
# modules only Gemm's and TileGemm's slices, the rest from the pack); whole/ and kk-whole/ this tree's Gemm and
# GemmKernels with floatsInBlocksScaled (the kernel for products of whole blocks) by this head's processor and
# by kk.diff's; <proc>-<variant>/ GemmKernels* of c2fc5e6 patched by variants.py (base: unpatched), by either
# processor; each first on the class path before split/). In order of need: registers; the plain layout's sgemm
# at 4096 and 8192; split and base at the shapes of few blocks (float32, then the 16-bit products); torch's at
# every shape; the 1B prefill of 512 tokens (split: the prefill calls Gemm, which splits) and base; the variants.
source bench/device-call.sh
G="$PWD/.gpu-check"
L="$G/bench/*:$R/.gpu/lib/*"
sgemm() { # build
  cp="$G/$1/*:$G/split/*:$L"; [ $1 = base ] && cp="$L"
  k=floatsInQuadsScaled; [ "${1%whole}" != "$1" ] && k=floatsInBlocksScaled
  echo "$1 $($J -cp "$cp" dev.kiln.bench.PipelineStats dev/kiln/library/GemmKernels.$k.spv 2>&1 | grep -E "Register" | head -1)" | tee -a $O/stats.txt
  timeout -s QUIT -k 5 60 $J -Dkiln.bench.sgemmPlain=true -Dkiln.bench.gemmShapes=4096x4096x4096,8192x8192x8192 -cp "$cp" dev.kiln.bench.LibraryBench /tmp/res/$1 sgemm 2>&1 | grep -E "GFLOP/s|Exception" | sed "s/^/$1 /" | tee -a $O/sgemm.txt
}
for v in whole split kk-whole base kk-base; do sgemm $v; done
for v in split base; do
  cp="$G/$v/*:$L"; [ $v = base ] && cp="$L"
  timeout -s QUIT -k 5 80 $J -Dkiln.bench.gemmShapes=1000x1000x1000,8192x128x8192,512x2048x2048,512x2048x8192,4000x3000x2000 -cp "$cp" dev.kiln.bench.LibraryBench /tmp/res/f$v sgemm 2>&1 | grep -E "GFLOP/s|Exception" | sed "s/^/$v /" | tee -a $O/sgemm.txt
  timeout -s QUIT -k 5 80 $J -Dkiln.bench.gemmShapes=1000x1000x1000,8192x128x8192,512x2048x2048,512x2048x8192 -cp "$cp" dev.kiln.bench.LibraryBench /tmp/res/h$v gemm 2>&1 | grep -E "GFLOP/s|Exception" | grep -v f32 | sed "s/^/$v /" | tee -a $O/gemm.txt
done
(cd bench && timeout 100 python3 - <<'PY' 2>&1 | tee $O/torch.txt
import torch
from torch_suite import measure
torch.backends.cuda.matmul.allow_tf32 = False
for m, n, k in [(4096,4096,4096),(8192,8192,8192),(4000,3000,2000),(1000,1000,1000),(8192,128,8192),(512,2048,2048),(512,2048,8192)]:
  for dtype in [torch.float32, torch.float16]:
    if dtype == torch.float16 and n >= 3000: continue
    a = [torch.rand(m, k, device="cuda").to(dtype) for _ in range(3)]
    b = [torch.rand(k, n, device="cuda").to(dtype) for _ in range(3)]
    r = measure(lambda s: a[s] @ b[s])
    print(f"torch {dtype} {m}x{n}x{k}: {r[0]:.4f} ms, {2*m*n*k/r[0]/1e6:,.0f} GFLOP/s, clock {r[3]}", flush=True)
PY
)
for v in split base; do
  cp="$G/$v/*:$L"; [ $v = base ] && cp="$L"
  timeout 60 $J -cp "$cp" dev.kiln.llama.Generate --random 1B --zeros 512 --steps 32 --prefill 512 2>&1 | grep -v JAVA_TOOL | grep -i -E "prefill|tokens/s|Exception" | sed "s/^/$v /" | tee -a $O/prefill.txt
done
for v in head-p head-pi head-pis kk-pis; do sgemm $v; done

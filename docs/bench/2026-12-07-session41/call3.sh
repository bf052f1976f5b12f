#!/bin/bash
# Session 41, call 3 (carry: [".gpu-check"]: the pack of 9cdf8c9, bench/ this head's bench jar with
# LibraryBench's sgemm part, s1/ this head's library, g*/ variants of it). Where the library's float32
# GEMM loses to the bench kernel it descends from: the driver's statistics of each module, then
# LibraryBench sgemm (Kiln's Gemm.floats, the bench's prefetched kernel checked and unchecked) and
# torch's float32 products in the same call. Variants (measurement only, wrong where marked):
#   gnn       Gemm's float kernels compiled for the plain layout alone (the other three loop copies
#             gone; * wrong for transposed operands, not run there)
#   gdirect   floatsInQuads stores a tile inside c from the registers, no epilogue (* no alpha, beta,
#             bias; tiles at c's edges not written)
#   gnndirect both
# On an H200, issue 50's table instead (call 7 of session 40 with this head's llama jar).
source bench/device-call.sh
G="$PWD/.gpu-check"
if grep -q H200 $O/gpu.txt; then
  exec bash docs/bench/2026-12-07-session40/call7.sh
fi
for v in s1 gnn gdirect gnndirect; do
  echo "== $v" >> $O/stats.txt
  $J -cp "$G/$v/*:$G/s1/*:$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.PipelineStats dev/kiln/library/GemmKernels.floatsInQuads.spv 2>&1 | grep -v JAVA_TOOL >> $O/stats.txt
done
$J -cp "$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.PipelineStats dev/kiln/bench/RegisterTiles.prefetchedUnchecked.spv dev/kiln/bench/RegisterTiles.prefetched.spv 2>&1 | grep -v JAVA_TOOL >> $O/stats.txt
cat $O/stats.txt
S=4096x4096x4096,8192x8192x8192,4000x3000x2000
lib() { # variant, extra flags
  v=$1; shift
  echo "== $v $*" >> $O/lib.txt
  timeout -s QUIT -k 5 120 $J "$@" -cp "$G/$v/*:$G/s1/*:$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.LibraryBench /tmp/res/$v sgemm 2>&1 | grep -v JAVA_TOOL | grep -E "gemm|==" >> $O/lib.txt
}
lib s1
for v in gnn gdirect gnndirect; do lib $v -Dkiln.bench.sgemmShapes=$S -Dkiln.bench.sgemmPlain=true; done
lib s1 -Dkiln.bench.sgemmShapes=$S -Dkiln.bench.sgemmPlain=true
cat $O/lib.txt
(cd bench && timeout 100 python3 torch_library.py /tmp/res/torch sgemm > /tmp/res/torch.txt 2>&1; tail -12 /tmp/res/torch.txt) | tee $O/torch.txt
tar -C /tmp -czf $O/res.tgz res

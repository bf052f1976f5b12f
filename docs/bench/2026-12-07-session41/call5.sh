#!/bin/bash
# Session 41, call 5 (carry: [".gpu-check"]). Call 4: the library's floatsInQuads without its edge
# tests, one layout, offsets 0 and no epilogue still took 147-155 registers (its fetches' element
# paths and finish() stayed in the module behind run-time conditions). Here floatsInQuads' body is
# rebuilt from the bench kernel up (measurement only; right at 4096 and 8192; their statistics only,
# the device time being short):
#   b0  the bench kernel's body with the library's row lengths (lda, ldb, ldc), offsets 0
#   b1  b0 with the offsets
#   b2  b1 with the library's edge-tested fetch() (an element path at edges)
#   b3  b2 with the library's epilogue (finish(): the tiles through workgroup memory)
#   b4  this head's kernels with fetchQuad: floatsInQuads' fetches without a branch (a 16-byte copy
#       from an index kept inside the operand, selects for k's edge); right at every shape, timed at
#       all of sgemm's shapes and layouts
#   b5  b4 with floatsInQuads storing its tiles from the registers, no epilogue (measurement only)
source bench/device-call.sh
G="$PWD/.gpu-check"
V="b0 b1 b2 b3 b4 b5"
for v in $V; do
  echo "== $v" >> $O/stats.txt
  $J -cp "$G/$v/*:$G/s1/*:$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.PipelineStats dev/kiln/library/GemmKernels.floatsInQuads.spv 2>&1 | grep -E "Register|Binary" >> $O/stats.txt
done
cat $O/stats.txt
lib() { # variant
  echo "== $1" >> $O/lib.txt
  timeout -s QUIT -k 5 60 $J -Dkiln.bench.sgemmShapes=4096x4096x4096,8192x8192x8192 -Dkiln.bench.sgemmPlain=true \
    -cp "$G/$1/*:$G/s1/*:$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.LibraryBench /tmp/res/$1 sgemm 2>&1 | grep -E "GFLOP/s" >> $O/lib.txt
}
lib s1
for v in b4 b5; do lib $v; done
echo "== b4, all shapes" >> $O/lib.txt
timeout -s QUIT -k 5 150 $J -cp "$G/b4/*:$G/s1/*:$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.LibraryBench /tmp/res/b4all sgemm 2>&1 | grep -E "GFLOP/s" >> $O/lib.txt
cat $O/lib.txt
(cd bench && timeout 60 python3 torch_library.py /tmp/res/torch sgemm > /tmp/res/torch.txt 2>&1; grep "gemm" /tmp/res/torch.txt | head -12) | tee $O/torch.txt

#!/bin/bash
# Session 41, call 4 (carry: [".gpu-check"]). Call 3: the library's floatsInQuads takes 149 registers
# (the bench kernel 127-128), so one workgroup of 256 fits a multiprocessor where two of the bench's
# do: 25.7 against 40.9 TFLOP/s unchecked. Which construct costs the registers: the driver's
# statistics of variants (measurement only; each wrong where it drops something), then each timed at
# 4096 and 8192, plain layout:
#   rnotest                    the fetches without their edge tests (whole blocks only)
#   rnotest-nn                 that, one layout compiled
#   rnotest-direct             notest, tiles stored from the registers (no epilogue)
#   rnotest-nn-direct-nooffset all three, and offsets 0: the bench kernel with strides
source bench/device-call.sh
G="$PWD/.gpu-check"
V="rnotest rnotest-nn rnotest-direct rnotest-nn-direct-nooffset"
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
for v in $V; do lib $v; done
cat $O/lib.txt

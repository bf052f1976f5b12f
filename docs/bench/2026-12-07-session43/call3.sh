#!/bin/bash
# Session 43, call 3 (carry: [".gpu-check"]: the pack of c19d75e; bench/ this head's bench jar; deep/:
# RegisterTiles with every counted loop that touches a private array written out (KILN_UNROLL=deep);
# deephint/: GemmKernels and RegisterTiles with those loops marked LoopControl Unroll instead).
# Call 2: the bench kernel at 127 registers and 40.6 TFLOP/s with no unrolling by Kiln (the driver
# chose), 103 and 31.0 whenever Kiln wrote out or marked only the loops whose counter indexes a
# private array. Here: registers, then sgemm at 4096, 8192 and 4000x3000x2000 for each form.
source bench/device-call.sh
G="$PWD/.gpu-check"
V="deep deephint"
for v in $V; do
  echo "== $v" >> $O/stats.txt
  $J -cp "$G/$v/*:$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.PipelineStats dev/kiln/library/GemmKernels.floatsInQuadsScaled.spv \
    dev/kiln/library/GemmKernels.floatsScaled.spv dev/kiln/bench/RegisterTiles.prefetchedUnchecked.spv 2>&1 | grep -E "spv|Register|Binary" >> $O/stats.txt
done
cat $O/stats.txt
for v in $V; do
  echo "== $v" >> $O/lib.txt
  timeout -s QUIT -k 5 90 $J -Dkiln.bench.sgemmShapes=4096x4096x4096,8192x8192x8192,4000x3000x2000 -cp "$G/$v/*:$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.LibraryBench /tmp/res/$v sgemm 2>&1 | grep -E "GFLOP/s|Exception" >> $O/lib.txt
done
cat $O/lib.txt

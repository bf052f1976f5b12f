#!/bin/bash
# Session 42, call 2 (carry: [".gpu-check"]: the pack of b4eec5f, the bench jar of d5416f6, and the
# variants of variants/evariants.py, each its GemmKernels classes and modules first on the class
# path; old: floatsInQuadsScaled's module as a6e77b0's processor compiled it). Call 1 found this
# head's floatsInQuadsScaled at 59 registers and 1.9 TFLOP/s: the driver's registers and
# LibraryBench sgemm at 4096 and 8192 for each form.
source bench/device-call.sh
G="$PWD/.gpu-check"
V="s old c0 c0o e1 e2 e3 u"
for v in $V; do
  echo "== $v" >> $O/stats.txt
  $J -cp "$G/$v/*:$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.PipelineStats dev/kiln/library/GemmKernels.floatsInQuadsScaled.spv 2>&1 | grep -E "Register|Binary" >> $O/stats.txt
done
cat $O/stats.txt
for v in $V; do
  echo "== $v" >> $O/lib.txt
  timeout -s QUIT -k 5 60 $J -Dkiln.bench.sgemmShapes=4096x4096x4096,8192x8192x8192 -Dkiln.bench.sgemmPlain=true \
    -cp "$G/$v/*:$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.LibraryBench /tmp/res/$v sgemm 2>&1 | grep -E "GFLOP/s|Exception" >> $O/lib.txt
done
cat $O/lib.txt

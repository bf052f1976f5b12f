#!/bin/bash
# Session 43, call 2 (carry: [".gpu-check"]: the pack of c19d75e; bench/ this head's bench jar; full/
# none/ hint/ split/: GemmKernels and RegisterTiles as a measurement build of the processor compiled
# them with KILN_UNROLL=<mode>: full = this head (counted loops over private arrays written out),
# none = the pass off, hint = the same loops left rolled but marked LoopControl Unroll for the
# driver, split = loops that store to memory, branch or copy written out, the others marked).
# Call 1 found the landed float32 GEMM at 31.2 / 32.0 TFLOP/s (4096 / 8192), and the bench kernel it
# descends from at 31.0 unchecked, against 40.6 in session 42's call 1 before the pass.
# Here: the driver's registers, then LibraryBench sgemm at every shape for each form; then the half
# of the device tests that had a failure and an aborted test in call 1, with its log.
source bench/device-call.sh
G="$PWD/.gpu-check"
V="full none hint split"
for v in $V; do
  echo "== $v" >> $O/stats.txt
  $J -cp "$G/$v/*:$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.PipelineStats dev/kiln/library/GemmKernels.floatsInQuadsScaled.spv \
    dev/kiln/library/GemmKernels.floatsScaled.spv dev/kiln/bench/RegisterTiles.prefetchedUnchecked.spv 2>&1 | grep -E "spv|Register|Binary" >> $O/stats.txt
done
cat $O/stats.txt
for v in $V; do
  echo "== $v" >> $O/lib.txt
  timeout -s QUIT -k 5 90 $J -cp "$G/$v/*:$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.LibraryBench /tmp/res/$v sgemm 2>&1 | grep -E "GFLOP/s|Exception" >> $O/lib.txt
done
cat $O/lib.txt
split -n l/2 "$R/tests.txt" "$R/tests-part-"
sel=(); while read -r t; do sel+=(--select-class "$t"); done < "$R/tests-part-aa"
timeout -s QUIT -k 15 300 $J -cp "$R/.gpu/lib/*" org.junit.platform.console.ConsoleLauncher execute --details=tree --disable-banner "${sel[@]}" > /tmp/res-aa.txt 2>&1
grep -nE "✘|↯|MethodSource|Exception|expected|Assum" /tmp/res-aa.txt | head -60 | tee $O/aa-failures.txt
xz -9 < /tmp/res-aa.txt > $O/aa.txt.xz

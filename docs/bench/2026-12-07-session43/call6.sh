#!/bin/bash
# Session 43, call 6: never ran (too little device time left). For the next session (carry: [".gpu-check"]:
# a pack of this head (bench/h200-check.sh pack), bench/ this head's bench jar, base/ this head's library
# jar, kk/ a jar of GemmKernels* and RegisterTiles* as kk.diff's processor compiles them, built as
# variants.diff's header says: the loops written out as in this head, and a counted loop whose body then
# touches private arrays at constant indices only, the register tile's loop over a stage's depth, marked
# Unroll; session 43 left .gpu-check so on its machine). Registers; sgemm at three shapes, kk then base.
source bench/device-call.sh
G="$PWD/.gpu-check"
$J -cp "$G/kk/*:$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.PipelineStats dev/kiln/library/GemmKernels.floatsInQuadsScaled.spv \
  dev/kiln/bench/RegisterTiles.prefetchedUnchecked.spv 2>&1 | grep -E "spv|Register" | tee $O/stats.txt
for v in kk base; do
  timeout -s QUIT -k 5 60 $J -Dkiln.bench.gemmShapes=4096x4096x4096,8192x8192x8192,4000x3000x2000 -cp "$G/$v/*:$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.LibraryBench /tmp/res/$v sgemm 2>&1 | grep -E "GFLOP/s|Exception" | sed "s/^/$v /" | tee -a $O/sgemm.txt
done

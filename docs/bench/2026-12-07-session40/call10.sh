#!/bin/bash
# Session 40, call 10 (an H100; carry: [".gpu-check"]): the split softmax's parts in one read (s1, the
# library with SplitRowKernels.partialSoftmax's running maximum) against this head's library, each
# twice, interleaved: LibraryBench rows (softmax, RMSNorm, LayerNorm at 4096 x 4096, 64 x 128256,
# 1 x 128256; only softmax's long rows change).
source bench/device-call.sh
grep -q H200 $O/gpu.txt && exec bash docs/bench/2026-12-07-session40/call7.sh
G="$PWD/.gpu-check"
for v in head s1 head s1; do
  CP="$G/bench/*:$R/.gpu/lib/*"; [ $v = head ] || CP="$G/$v/*:$CP"
  echo "== $v"; timeout 60 $J -cp "$CP" dev.kiln.bench.LibraryBench /tmp/res-$v rows 2>&1 | grep -v JAVA_TOOL | grep -v " n=" | grep softmax
done 2>&1 | tee $O/rows.txt

#!/bin/bash
# Session 44, call 2 (carry: [".gpu-check"] holding bench/h200-check.sh's pack of this session's head and bench/ its bench jar: kk.diff's
# marks, floatsInBlocksScaled, split-k, SliceProbe; 700 fuzz kernels). In order of need: SliceProbe (where a
# split float product's time goes); Gemm.floats at 4096 / 8192 (plain layout and b transposed) and at the shapes
# of few blocks; the 1B prefill of 512 tokens; then the GPU check cut to the time left.
rm -rf /tmp/kiln-perf # a machine still warm from call 1 holds the pack before this one
source bench/device-call.sh
G="$PWD/.gpu-check"
timeout -s QUIT -k 5 120 $J -cp "$G/bench/*:$R/.gpu/lib/*" dev.kiln.library.SliceProbe 2>&1 | grep -v -E "^INFO|Device open" | tee $O/probe.txt
timeout -s QUIT -k 5 70 $J -Dkiln.bench.gemmShapes=4096x4096x4096,8192x8192x8192,1000x1000x1000,8192x128x8192 -cp "$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.LibraryBench /tmp/res/s sgemm 2>&1 | grep -E "GFLOP/s|Exception" | tee $O/sgemm.txt
timeout 60 $J -cp "$G/bench/*:$R/.gpu/lib/*" dev.kiln.llama.Generate --random 1B --zeros 512 --steps 32 --prefill 512 2>&1 | grep -i -E "prefill|tokens/s|Exception" | tee $O/prefill.txt
KILN_CHECK_TESTS_S=${TESTS_S:-110} KILN_CHECK_FUZZ_S=40 KILN_CHECK_FUSION_S=20 KILN_CHECK_CORPUS_S=20 \
  bash bench/h200-check.sh run /tmp/check 2>&1 | tee $O/check-summary.txt
(cd /tmp/check && tar czf $O/check-logs.tgz . 2>/dev/null)

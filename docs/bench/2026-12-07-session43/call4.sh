#!/bin/bash
# Session 43, call 4 (carry: [".gpu-check"]: the pack of this head, whose processor marks the counted
# loops that touch a private array LoopControl Unroll instead of writing them out (700 fuzz kernels);
# bench/ this head's bench jar; base/ the library and llama jars of c19d75e (loops written out), B
# below). Calls 2-3 measured the marking as a measurement build (deephint): float32 GEMM 32.1 / 33.0
# TFLOP/s against 31.2 / 32.0 written out; the bench kernel 36.5 against 31.0.
# Here: registers; sgemm, the 16-bit gemm at 4096 / 8192 / 4000x3000x2000, rows and the 1B decode,
# before (B) and after (N); then bench/h200-check.sh run.
source bench/device-call.sh
G="$PWD/.gpu-check"
N="$G/bench/*:$R/.gpu/lib/*"
B="$G/base/*:$G/bench/*:$R/.gpu/lib/*"
for k in GemmKernels.floatsInQuadsScaled GemmKernels.floatsScaled TileGemmKernels.halves TileGemmKernels.halvesInOctets \
  TileGemmKernels.bfloats RowKernels.softmax RowKernels.rmsNorm; do S="$S dev/kiln/library/$k.spv"; done
for v in B N; do
  echo "== $v" >> $O/stats.txt
  $J -cp "${!v}" dev.kiln.bench.PipelineStats $S dev/kiln/bench/RegisterTiles.prefetchedUnchecked.spv 2>&1 | grep -E "spv|Register|Binary" >> $O/stats.txt
done
cat $O/stats.txt
S3=4096x4096x4096,8192x8192x8192,4000x3000x2000
timeout -s QUIT -k 5 50 $J -Dkiln.bench.gemmShapes=4096x4096x4096,8192x8192x8192 -cp "$B" dev.kiln.bench.LibraryBench /tmp/res/sB sgemm 2>&1 | grep -E "Kiln f32 |Exception" | sed 's/^/B /' | tee $O/sgemm.txt
timeout -s QUIT -k 5 90 $J -cp "$N" dev.kiln.bench.LibraryBench /tmp/res/sN sgemm 2>&1 | grep -E "GFLOP/s|Exception" | sed 's/^/N /' | tee -a $O/sgemm.txt
for v in B N; do
  timeout -s QUIT -k 5 70 $J -Dkiln.bench.gemmShapes=$S3 -cp "${!v}" dev.kiln.bench.LibraryBench /tmp/res/g$v gemm 2>&1 | grep -E "GFLOP/s|Exception" | grep -v "f32" | sed "s/^/$v /" | tee -a $O/gemm.txt
done
for v in B N; do
  timeout -s QUIT -k 5 40 $J -cp "${!v}" dev.kiln.bench.LibraryBench /tmp/res/rows$v rows 2>&1 | grep -E "GB/s$|Exception" | sed "s/^/$v /" | tee -a $O/rows.txt
done
for v in B N; do
  echo "== 1B $v" >> $O/decode.txt
  timeout 50 $J -cp "${!v}" dev.kiln.llama.Generate --random 1B --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/decode.txt
done
cat $O/decode.txt
KILN_CHECK_TESTS_S=150 bash bench/h200-check.sh run /tmp/check 2>&1 | tee $O/check-summary.txt
grep -hE "✘" /tmp/check/device-tests-*.txt | head -20 > $O/check-failures.txt

#!/bin/bash
# Session 43, call 5: call4.sh cut to the device time left (failed starts took 375 s). Same carry, the pack
# rebuilt after the writer stopped counting the turns of marked loops for lavapipe (folded away elsewhere).
# Registers; sgemm at 4096 / 8192 / 4000x3000x2000 (N); the 16-bit gemm at 8192, rows and the 1B
# decode, before (B) and after (N); then the fuzz and the corpora of bench/h200-check.sh alone.
source bench/device-call.sh
G="$PWD/.gpu-check"
N="$G/bench/*:$R/.gpu/lib/*"
B="$G/base/*:$G/bench/*:$R/.gpu/lib/*"
for k in GemmKernels.floatsInQuadsScaled TileGemmKernels.halves TileGemmKernels.halvesInOctets RowKernels.softmax \
  GemvKernels.halvesInSubgroups GemvKernels.halfPair.group; do S="$S dev/kiln/library/$k.spv"; done
for v in B N; do
  echo "== $v" >> $O/stats.txt
  $J -cp "${!v}" dev.kiln.bench.PipelineStats $S 2>&1 | grep -E "spv|Register|Binary" >> $O/stats.txt
done
cat $O/stats.txt
for v in B N; do
  echo "== 1B $v" >> $O/decode.txt
  timeout 40 $J -cp "${!v}" dev.kiln.llama.Generate --random 1B --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/decode.txt
done
cat $O/decode.txt
timeout -s QUIT -k 5 40 $J -Dkiln.bench.gemmShapes=4096x4096x4096,8192x8192x8192,4000x3000x2000 -cp "$N" dev.kiln.bench.LibraryBench /tmp/res/sN sgemm 2>&1 | grep -E "GFLOP/s|Exception" | sed 's/^/N /' | tee $O/sgemm.txt
for v in B N; do
  timeout -s QUIT -k 5 40 $J -Dkiln.bench.gemmShapes=8192x8192x8192 -cp "${!v}" dev.kiln.bench.LibraryBench /tmp/res/g$v gemm 2>&1 | grep -E "GFLOP/s|Exception" | grep -v "f32" | sed "s/^/$v /" | tee -a $O/gemm.txt
done
for v in B N; do
  timeout -s QUIT -k 5 30 $J -cp "${!v}" dev.kiln.bench.LibraryBench /tmp/res/rows$v rows 2>&1 | grep -E "GB/s$|Exception" | sed "s/^/$v /" | tee -a $O/rows.txt
done
KILN_CHECK_TESTS_S=0 KILN_CHECK_FUZZ_S=60 KILN_CHECK_FUSION_S=40 KILN_CHECK_CORPUS_S=40 bash bench/h200-check.sh run /tmp/check 2>&1 | grep -v "^device tests" | tee $O/check-summary.txt

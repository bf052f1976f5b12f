#!/bin/bash
# Session 42, call 3 (carry: [".gpu-check"]: the pack of b4eec5f, the bench jar of d5416f6, unr/ the
# library and llama jars compiled by this head's processor with RegisterUnrolling). Call 2: the
# float32 GEMM's store loop written out by hand kept its sums in registers (128, 33.7 TFLOP/s; 59 and
# 1.9 rolled). With the processor unrolling every counted loop that indexes a private array: the
# driver's registers for the float GEMM kernels, LibraryBench sgemm at every shape, the GEMVs and the
# 1B and 3B decode, each against the pack's jars in the same call.
source bench/device-call.sh
G="$PWD/.gpu-check"
U="$G/unr/*:$G/bench/*:$R/.gpu/lib/*"
B="$G/bench/*:$R/.gpu/lib/*"
for k in floatsInQuadsScaled floatsScaled floatsInQuads floats halves; do S="$S dev/kiln/library/GemmKernels.$k.spv"; done
$J -cp "$U" dev.kiln.bench.PipelineStats $S 2>&1 | grep -E "spv|Register|Binary" | tee $O/stats.txt
timeout -s QUIT -k 5 150 $J -cp "$U" dev.kiln.bench.LibraryBench /tmp/res/unr sgemm 2>&1 | grep -E "GFLOP/s|Exception" | tee $O/sgemm.txt
for m in 1B 3B; do
  for v in B U; do
    echo "== $m $v" >> $O/decode.txt
    timeout 60 $J -cp "${!v}" dev.kiln.llama.Generate --random $m --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/decode.txt
  done
done
cat $O/decode.txt
for v in B U; do
  echo "== $v" >> $O/gemv.txt
  timeout -s QUIT -k 5 100 $J -cp "${!v}" dev.kiln.bench.LibraryBench /tmp/res/gemv$v gemv 2>&1 | grep -E "GB/s|Exception" >> $O/gemv.txt
done
cat $O/gemv.txt

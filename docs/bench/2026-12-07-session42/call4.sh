#!/bin/bash
# Session 42, call 4, the next call (carry: [".gpu-check"]: the pack of c19d75e, whose processor unrolls counted loops
# over private arrays (RegisterUnrolling), with 700 fuzz kernels; bench/ this head's bench jar; base/
# the library and llama jars of d5416f6, before the unrolling). Calls 1-2: the float32 scaled GEMM
# kept its sums in memory (59 registers, 1.9 TFLOP/s); its store loop written out by hand, 128 and
# 33.7. Here, on whatever GPU comes: the driver's registers for the GEMM kernels; LibraryBench sgemm
# at every shape; torch's float32 products; the decode (1B, 3B) and the row kernels before and after;
# then bench/h200-check.sh run on this head's pack (device tests, fuzz, random fusion, corpora).
source bench/device-call.sh
G="$PWD/.gpu-check"
N="$G/bench/*:$R/.gpu/lib/*"
B="$G/base/*:$G/bench/*:$R/.gpu/lib/*"
for k in floatsInQuadsScaled floatsScaled floatsInQuads floats halves; do S="$S dev/kiln/library/GemmKernels.$k.spv"; done
$J -cp "$N" dev.kiln.bench.PipelineStats $S 2>&1 | grep -E "spv|Register|Binary" | tee $O/stats.txt
timeout -s QUIT -k 5 120 $J -cp "$N" dev.kiln.bench.LibraryBench /tmp/res/n sgemm 2>&1 | grep -E "GFLOP/s|Exception" | tee $O/sgemm.txt
(cd bench && timeout 60 python3 torch_library.py /tmp/res/torch sgemm > /tmp/res/torch.txt 2>&1; grep "gemm" /tmp/res/torch.txt) | tee $O/torch.txt
for m in 1B 3B; do
  for v in B N; do
    echo "== $m $v" >> $O/decode.txt
    timeout 50 $J -cp "${!v}" dev.kiln.llama.Generate --random $m --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/decode.txt
  done
done
cat $O/decode.txt
for v in B N; do
  echo "== $v" >> $O/rows.txt
  timeout -s QUIT -k 5 50 $J -cp "${!v}" dev.kiln.bench.LibraryBench /tmp/res/rows$v rows 2>&1 | grep -E "GB/s|Exception" >> $O/rows.txt
done
cat $O/rows.txt
bash bench/h200-check.sh run $O/check 2>&1 | tee $O/check-summary.txt

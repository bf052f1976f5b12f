#!/bin/bash
# Session 42, call 1 (carry: [".gpu-check"]: the pack of b4eec5f, the bench jar of d5416f6, and the
# float32 GEMM's variants c0, c1, c2, d1 of variants/cvariants.py, each its GemmKernels classes and
# modules first on the class path). On an H200, issue 50's table (session 40's call7.sh) alone.
# Else: the driver's registers for each variant's floatsInQuadsScaled; LibraryBench sgemm at 4096 and
# 8192 for this head (s) and each variant; all sgemm shapes for this head; torch's float32 products;
# the 1B and 3B decode after session 41's branch folding.
source bench/device-call.sh
G="$PWD/.gpu-check"
if grep -q H200 $O/gpu.txt; then
  sed "s#\$G/v5/\*:##" docs/bench/2026-12-07-session40/call7.sh > /tmp/call7.sh
  exec bash /tmp/call7.sh
fi
for v in s c0 c1 c2 d1; do
  echo "== $v" >> $O/stats.txt
  $J -cp "$G/$v/*:$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.PipelineStats dev/kiln/library/GemmKernels.floatsInQuadsScaled.spv 2>&1 | grep -E "Register|Binary" >> $O/stats.txt
done
$J -cp "$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.PipelineStats dev/kiln/library/GemmKernels.floatsScaled.spv dev/kiln/library/GemmKernels.floatsInQuads.spv 2>&1 | grep -E "spv|Register|Binary" >> $O/stats.txt
cat $O/stats.txt
for v in s c0 c1 c2 d1; do
  echo "== $v" >> $O/lib.txt
  timeout -s QUIT -k 5 60 $J -Dkiln.bench.sgemmShapes=4096x4096x4096,8192x8192x8192 -Dkiln.bench.sgemmPlain=true \
    -cp "$G/$v/*:$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.LibraryBench /tmp/res/$v sgemm 2>&1 | grep -E "GFLOP/s" >> $O/lib.txt
done
echo "== s, all shapes" >> $O/lib.txt
timeout -s QUIT -k 5 150 $J -cp "$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.LibraryBench /tmp/res/all sgemm 2>&1 | grep -E "GFLOP/s" >> $O/lib.txt
cat $O/lib.txt
(cd bench && timeout 60 python3 torch_library.py /tmp/res/torch sgemm > /tmp/res/torch.txt 2>&1; grep "gemm" /tmp/res/torch.txt) | tee $O/torch.txt
for m in 1B 3B; do
  timeout 60 $J -cp "$G/bench/*:$R/.gpu/lib/*" dev.kiln.llama.Generate --random $m --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 | tee -a $O/decode.txt
done

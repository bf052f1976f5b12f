#!/bin/bash
# Session 42, call 5: call4.sh cut to the device time left after five starts that found no machine
# (carry: [".gpu-check"]: the pack of e8b0876 with 700 fuzz kernels; bench/ this head's bench jar;
# base/ the library and llama jars of d5416f6). The driver's registers for the GEMM kernels;
# LibraryBench sgemm at every shape (the plain layout) (torch's products too on an H200; calls 1-2 timed them on the
# H100); the 1B decode before and after; then bench/h200-check.sh run on this head's pack.
source bench/device-call.sh
G="$PWD/.gpu-check"
N="$G/bench/*:$R/.gpu/lib/*"
B="$G/base/*:$G/bench/*:$R/.gpu/lib/*"
for k in floatsInQuadsScaled floatsScaled floatsInQuads floats halves; do S="$S dev/kiln/library/GemmKernels.$k.spv"; done
$J -cp "$N" dev.kiln.bench.PipelineStats $S dev/kiln/bench/RegisterTiles.prefetchedUnchecked.spv 2>&1 | grep -E "spv|Register" | tee $O/stats.txt
timeout -s QUIT -k 5 90 $J -Dkiln.bench.sgemmPlain=true -cp "$N" dev.kiln.bench.LibraryBench /tmp/res/n sgemm 2>&1 | grep -E "GFLOP/s|Exception" | tee $O/sgemm.txt
if grep -q H200 $O/gpu.txt; then
  (cd bench && timeout 60 python3 torch_library.py /tmp/res/torch sgemm > /tmp/res/torch.txt 2>&1; grep "gemm" /tmp/res/torch.txt) | tee $O/torch.txt
fi
for v in B N; do
  echo "== 1B $v" >> $O/decode.txt
  timeout 40 $J -cp "${!v}" dev.kiln.llama.Generate --random 1B --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/decode.txt
done
cat $O/decode.txt
KILN_CHECK_TESTS_S=120 bash bench/h200-check.sh run $O/check 2>&1 | tee $O/check-summary.txt

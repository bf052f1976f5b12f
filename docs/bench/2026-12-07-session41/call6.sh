#!/bin/bash
# Session 41, call 6 (carry: [".gpu-check"]; sc/ this head's GEMM: floatsScaled and floatsInQuadsScaled
# store their tiles from the registers where the product has no epilogue but alpha and beta, the
# epilogue kernels keep finish(); floatsInQuads' fetches by fetchQuad). Call 5: finish() took the
# product from 128 to 149-155 registers, one workgroup a multiprocessor where two fit. The driver's
# statistics of the four float kernels, LibraryBench sgemm with this head's library before (s1) and
# after (sc), torch's float32 products in the same call.
source bench/device-call.sh
G="$PWD/.gpu-check"
$J -cp "$G/sc/*:$G/s1/*:$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.PipelineStats dev/kiln/library/GemmKernels.floatsInQuadsScaled.spv \
  dev/kiln/library/GemmKernels.floatsScaled.spv dev/kiln/library/GemmKernels.floatsInQuads.spv dev/kiln/library/GemmKernels.floats.spv 2>&1 | grep -E "spv|Register|Binary" | tee $O/stats.txt
for v in s1 sc; do
  echo "== $v" >> $O/lib.txt
  timeout -s QUIT -k 5 100 $J -cp "$G/$v/*:$G/s1/*:$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.LibraryBench /tmp/res/$v sgemm 2>&1 | grep -E "GFLOP/s" >> $O/lib.txt
done
cat $O/lib.txt
(cd bench && timeout 60 python3 torch_library.py /tmp/res/torch sgemm > /tmp/res/torch.txt 2>&1; grep "gemm" /tmp/res/torch.txt | head -12) | tee $O/torch.txt

#!/bin/bash
# Made in session 41 for the next device call (carry: [".gpu-check"], a pack of this head made first:
# KILN_CHECK_KERNELS=700 bash bench/h200-check.sh pack, and the bench jar copied to .gpu-check/bench/).
# Not run: the session's device time was spent. It times what session 41 landed untimed: the float32
# GEMM's scaled kernels (registers and TFLOP/s against torch in the same call) and the decode after the
# processor began folding branches on constant arguments (every library and llama module changed; the
# driver folded them before, so the same speed is expected: 1B 677-682 tokens/s on the H100 in
# sessions 40-41). On an H200, issue 50's table first (session 40's call7.sh with the pack's jars).
source bench/device-call.sh
G="$PWD/.gpu-check"
CP="$G/bench/*:$R/.gpu/lib/*"
if grep -q H200 $O/gpu.txt; then
  sed "s#\$G/v5/\*:##" docs/bench/2026-12-07-session40/call7.sh > /tmp/call7.sh && bash /tmp/call7.sh
fi
$J -cp "$CP" dev.kiln.bench.PipelineStats dev/kiln/library/GemmKernels.floatsInQuadsScaled.spv \
  dev/kiln/library/GemmKernels.floatsScaled.spv dev/kiln/library/GemmKernels.floatsInQuads.spv 2>&1 | grep -E "spv|Register|Binary" | tee $O/stats.txt
timeout -s QUIT -k 5 120 $J -cp "$CP" dev.kiln.bench.LibraryBench /tmp/res/sgemm sgemm 2>&1 | grep -E "GFLOP/s" | tee $O/sgemm.txt
(cd bench && timeout 60 python3 torch_library.py /tmp/res/torch sgemm > /tmp/res/torch.txt 2>&1; grep "gemm" /tmp/res/torch.txt) | tee $O/torch.txt
for m in 1B 3B; do
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random $m --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 | tee -a $O/decode.txt
done

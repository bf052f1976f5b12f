#!/bin/bash
# Session 40, call 9 (carry: [".gpu-check"]): on an H200, issue 50's table (call7.sh). Elsewhere,
# issue 49's GEMV and row kernels against PyTorch in one call with this head's library (the 16-byte
# float16 chunks through Gpu.float16ToFloat, session 39; the pack's library jar is this head's):
# LibraryBench gemv,rows (the bench jar of 9cdf8c9 in .gpu-check/bench) and bench/torch_library.py
# on the same shapes.
source bench/device-call.sh
grep -q H200 $O/gpu.txt && exec bash docs/bench/2026-12-07-session40/call7.sh
mkdir -p /tmp/res
timeout -s QUIT -k 10 150 $J -cp "$PWD/.gpu-check/bench/*:$R/.gpu/lib/*" dev.kiln.bench.LibraryBench /tmp/res gemv,rows 2>&1 | grep -v JAVA_TOOL | grep -v " n=" > $O/lib.txt
(cd bench && timeout 90 python3 torch_library.py /tmp/res gemv,rows > /tmp/res/torch.txt 2>&1)
cp /tmp/res/*.csv /tmp/res/torch.txt $O/ 2>/dev/null
cat $O/lib.txt; tail -3 /tmp/res/torch.txt

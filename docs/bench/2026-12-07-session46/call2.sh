#!/bin/bash
# Not run in session 46: no H200 came (call 1 ran on an H100 and took its figures).
# Session 46, call 2 (carry: [".gpu-check"], call 1's pack and bench jar): on an H200, issue 49's table: the
# library's LibraryBench (every part but sgemm, which gemm covers) and bench/torch_library.py on the same shapes (its copy
# part too: the copy rate the bandwidth targets are fractions of), one after the other in one call. On an H100 it
# stops: call 1 took that card's figures.
source bench/device-call.sh
G="$PWD/.gpu-check"
L="$G/bench/*:$R/.gpu/lib/*"
grep -q H200 $O/gpu.txt || { echo "not an H200: nothing to do"; exit 0; }
timeout -s QUIT -k 10 250 $J -cp "$L" dev.kiln.bench.LibraryBench /tmp/res/lib 2>&1 | grep -v JAVA_TOOL | grep -v " n=" > $O/lib.txt
(cd bench && timeout 200 python3 torch_library.py /tmp/res/torch > /tmp/res/torch.txt 2>&1)
tar -C /tmp/res -czf $O/res.tgz .
grep -c . $O/lib.txt; tail -3 /tmp/res/torch.txt

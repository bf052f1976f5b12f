#!/bin/bash
# Session 33's H200 probe: stops at once unless the card is an H200; there, with the head's jars (the
# 0.5 % GEMV change aside: .gpu-check/head holds 4b87d88's library), the 1B decode and prefill, PyTorch
# on the same shape, and the library's GEMMs: issue 50's and 49's first H200 figures.
source bench/device-call.sh
grep -q H200 $O/gpu.txt || { echo "not an H200: stopping"; exit 0; }
timeout 70 $J -cp "$HEAD" dev.kiln.llama.Generate --random 1B --steps 384 2>&1 | grep -v JAVA_TOOL | tail -3 | tee $O/llama.txt
(cd bench && timeout 100 python3 -u torch_llama.py --random 1B --steps 640 2>&1 | grep -v -i warn | tail -4) | tee -a $O/llama.txt
timeout -s QUIT -k 5 90 $J -cp "$HEAD" dev.kiln.bench.LibraryBench $O/lib gemm 2>&1 | grep -v JAVA_TOOL | tee $O/lib.txt

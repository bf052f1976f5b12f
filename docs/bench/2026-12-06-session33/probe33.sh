#!/bin/bash
# Session 33's H200 probe: stops at once unless the card is an H200; there, with the head's jars (the
# 0.5 % GEMV change aside: .gpu-check/head holds 4b87d88's library), the 1B decode and prefill, PyTorch
# on the same shape, and the library's GEMMs: issue 50's and 49's first H200 figures.
O=$OUT; mkdir -p $O
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
grep -q H200 $O/gpu.txt || { echo "not an H200: stopping"; exit 0; }
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz; }
source $R/.gpu/env.sh
J="java -Xmx40g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
HEAD="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
timeout 70 $J -cp "$HEAD" dev.kiln.llama.Generate --random 1B --steps 384 2>&1 | grep -v JAVA_TOOL | tail -3 | tee $O/llama.txt
(cd bench && timeout 100 python3 -u torch_llama.py --random 1B --steps 640 2>&1 | grep -v -i warn | tail -4) | tee -a $O/llama.txt
timeout -s QUIT -k 5 90 $J -cp "$HEAD" dev.kiln.bench.LibraryBench $O/lib gemm 2>&1 | grep -v JAVA_TOOL | tee $O/lib.txt

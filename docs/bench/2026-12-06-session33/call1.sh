#!/bin/bash
# Session 33, call 1: the decode's float16 GEMV shapes, Kiln against GLSL twins (GemvTwinBench).
O=$OUT; mkdir -p $O
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz; }
source $R/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx40g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
HEAD="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
timeout -s QUIT -k 5 240 $J -cp "$HEAD" dev.kiln.bench.GemvTwinBench 2>&1 | grep -v JAVA_TOOL | tee $O/twins.txt

#!/bin/bash
# Session 31, call 11: whether Nsight Compute (ncu) sees Kiln's Vulkan dispatches (a GEMV benchmark, two launches).
O=$OUT; mkdir -p $O
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz; }
source $R/.gpu/env.sh
ncu --version | tail -1
J="java -Xmx20g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
timeout -s INT 80 ncu --target-processes all --launch-skip 20 --launch-count 2 --section SpeedOfLight \
  $J -cp "$PWD/.gpu-check/head/*:$R/.gpu/lib/*" dev.kiln.bench.LibraryBench /tmp/ncu gemv > $O/ncu.txt 2>&1
grep -v "JAVA_TOOL\|^gemv" $O/ncu.txt | head -60

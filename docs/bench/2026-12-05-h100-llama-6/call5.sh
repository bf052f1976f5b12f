#!/bin/bash
# Session 26, call 5: the landed GEMVs' bits on the GPU (subgroup folds) against the CPU backend (workgroup memory).
O=$OUT; mkdir -p $O
[ -d /tmp/kiln-check/.gpu ] || { mkdir -p /tmp/kiln-check && tar -C /tmp/kiln-check -xJf .gpu-check/pack.tar.xz; }
source /tmp/kiln-check/.gpu/env.sh
J="java -Xmx30g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
NEW="$PWD/.gpu-check/new/*:/tmp/kiln-check/.gpu/lib/*:/tmp/kiln-check/extra/*"
timeout 120 $J -cp "$NEW" dev.kiln.bench.GemvBits 2>&1 | grep -v JAVA_TOOL | tee $O/bits.txt
echo "exit ${PIPESTATUS[0]}" | tee -a $O/bits.txt

#!/bin/bash
# Session 26, call 2: on top of commit 6d5fef2 (v1): subgroup trees (B), 64-byte (D) and 128-byte (E) lane chunks, both (F), F with the cheaper float16 check (G).
O=$OUT; mkdir -p $O
[ -d /tmp/kiln-check/.gpu ] || { mkdir -p /tmp/kiln-check && tar -C /tmp/kiln-check -xJf .gpu-check/pack.tar.xz; }
source /tmp/kiln-check/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx30g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
cp() { echo "$PWD/.gpu-check/lib-$1/*:$PWD/.gpu-check/common/*:/tmp/kiln-check/.gpu/lib/*:/tmp/kiln-check/extra/*"; }
for va in "v1" "B" "D" "E" "F" "G" "v1" "F --bf16" "v1 --bf16"; do
  set -- $va
  echo "== $va 1B" | tee -a $O/llama.txt
  timeout 100 $J -cp "$(cp $1)" dev.kiln.llama.Generate --random 1B $2 --steps 640 2>&1 | grep -v JAVA_TOOL | tail -3 | head -2 | tee -a $O/llama.txt
done
for v in v1 B E F G; do
  echo "== $v gemv" | tee -a $O/gemv.txt
  timeout 120 $J -cp "$(cp $v)" dev.kiln.bench.LibraryBench $O/lib-$v gemv 2>&1 | grep -v JAVA_TOOL | tail -40 >> $O/gemv.txt
done

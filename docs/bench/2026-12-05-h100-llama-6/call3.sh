#!/bin/bash
# Session 26, call 3: on top of B (subgroup trees): prefetch of the next chunk (P), cheaper float16 check (C), two interleaved partials (I), 64 lanes a row (L).
O=$OUT; mkdir -p $O
[ -d /tmp/kiln-check/.gpu ] || { mkdir -p /tmp/kiln-check && tar -C /tmp/kiln-check -xJf .gpu-check/pack.tar.xz; }
source /tmp/kiln-check/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx30g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
cp() { echo "$PWD/.gpu-check/lib-$1/*:$PWD/.gpu-check/common/*:/tmp/kiln-check/.gpu/lib/*:/tmp/kiln-check/extra/*"; }
for va in "B" "BP" "BPC" "BPI" "BPIC" "BPL" "B" "BP --bf16"; do
  set -- $va
  echo "== $va 1B" | tee -a $O/llama.txt
  timeout 100 $J -cp "$(cp $1)" dev.kiln.llama.Generate --random 1B $2 --steps 640 2>&1 | grep -v JAVA_TOOL | tail -3 | head -2 | tee -a $O/llama.txt
done
for v in B BP BPIC BPL; do
  echo "== $v gemv" | tee -a $O/gemv.txt
  timeout 120 $J -cp "$(cp $v)" dev.kiln.bench.LibraryBench $O/lib-$v gemv 2>&1 | grep -v JAVA_TOOL | tail -40 >> $O/gemv.txt
done

#!/bin/bash
# Session 26, call 1: argmax split (v1 also: gate/up lanes share x), two rows a run (v2), subgroup trees (v3), against base.
O=$OUT; mkdir -p $O
[ -d /tmp/kiln-check/.gpu ] || { mkdir -p /tmp/kiln-check && tar -C /tmp/kiln-check -xJf .gpu-check/pack.tar.xz; }
source /tmp/kiln-check/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx30g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
cp() { echo "$PWD/.gpu-check/$1/*:/tmp/kiln-check/.gpu/lib/*:/tmp/kiln-check/extra/*"; }
for v in base v1 v2 v3 base v3; do
  echo "== $v 1B f16" | tee -a $O/llama.txt
  timeout 100 $J -cp "$(cp $v)" dev.kiln.llama.Generate --random 1B --steps 640 2>&1 | grep -v JAVA_TOOL | tail -4 | tee -a $O/llama.txt
done
for v in base v2 v3; do
  echo "== $v gemv" | tee -a $O/gemv.txt
  timeout 120 $J -cp "$(cp $v)" dev.kiln.bench.LibraryBench $O/lib-$v gemv 2>&1 | grep -v JAVA_TOOL | tail -40 >> $O/gemv.txt
done
echo "== agreement (v3)" | tee -a $O/agree.txt
(cd bench && timeout 150 python3 -u llama_agreement.py --java "$J -cp $(cp v3)" --shape 1B --type F16 2>&1 | tail -10 | tee -a $O/agree.txt)

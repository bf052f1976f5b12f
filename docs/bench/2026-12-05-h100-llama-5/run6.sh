#!/bin/bash
O=$OUT; mkdir -p $O
[ -d /tmp/kiln-check/.gpu ] || { mkdir -p /tmp/kiln-check && tar -C /tmp/kiln-check -xJf .gpu-check/pack.tar.xz; }
source /tmp/kiln-check/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx30g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
NEW="$PWD/.gpu-check/over/*:/tmp/kiln-check/.gpu/lib/*:/tmp/kiln-check/extra/*"
ALT="$PWD/.gpu-check/alt/*:$NEW"
for va in "checked 1B" "unchecked 1B" "checked 1B" "unchecked 1B"; do
  v=${va%% *}; s=${va#* }
  CP=$NEW; [ $v = unchecked ] && CP=$ALT
  echo "== $v $s f16" | tee -a $O/llama.txt
  timeout 100 $J -cp "$CP" dev.kiln.llama.Generate --random $s --steps 640 2>&1 | grep -v JAVA_TOOL | tail -5 | tee -a $O/llama.txt
done
echo "== agreement (unchecked)" | tee -a $O/agree.txt
(cd bench && timeout 200 python3 -u llama_agreement.py --java "$J -cp $ALT" --shape 1B --type F16 2>&1 | tail -10 | tee -a $O/agree.txt)
for s in 3B 8B; do
  echo "== unchecked $s f16" | tee -a $O/llama.txt
  timeout 120 $J -cp "$ALT" dev.kiln.llama.Generate --random $s --steps 640 2>&1 | grep -v JAVA_TOOL | tail -5 | tee -a $O/llama.txt
done

#!/bin/bash
O=$OUT; mkdir -p $O
[ -d /tmp/kiln-check/.gpu ] || { mkdir -p /tmp/kiln-check && tar -C /tmp/kiln-check -xJf .gpu-check/pack.tar.xz; }
source /tmp/kiln-check/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx30g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
NEW="$PWD/.gpu-check/over/*:/tmp/kiln-check/.gpu/lib/*:/tmp/kiln-check/extra/*"
BASE="$PWD/.gpu-check/base/*:/tmp/kiln-check/.gpu/lib/*:/tmp/kiln-check/extra/*"
for v in base new base new; do
  CP=$NEW; [ $v = base ] && CP=$BASE
  echo "== $v 1B f16" | tee -a $O/llama.txt
  timeout 100 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --steps 640 2>&1 | grep -v JAVA_TOOL | tail -5 | tee -a $O/llama.txt
done
echo "== torch 1B" | tee -a $O/llama.txt
(cd bench && timeout 150 python3 -u torch_llama.py --random 1B --steps 640 2>&1 | tail -6 | tee -a $O/llama.txt)
echo "== agreement (new)" | tee -a $O/agree.txt
(cd bench && timeout 200 python3 -u llama_agreement.py --java "$J -cp $NEW" --shape 1B --type F16 2>&1 | tail -10 | tee -a $O/agree.txt)
